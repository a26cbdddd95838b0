import { ApiProperty } from '@nestjs/swagger';

/** OpenAPI shapes of the wallet routes (the contracts are plain interfaces and DTOs). */
export class PassUrlDoc {
  @ApiProperty({
    example: '/api/files/wallet-passes/6f1c1c9e-0d7b-4c1e-9d3a-1f2e3d4c5b6a/3a9e….pkpass?expires=1767225600&filename=medfolio_….pkpass&type=application%2Fvnd.apple.pkpass&signature=…',
    description: 'A short-lived signed link (5 minutes) serving the signed pass as application/vnd.apple.pkpass, named medfolio_{userId}.pkpass',
  })
  url!: string;
}

export class PassStatusDoc {
  @ApiProperty({
    enum: ['none', 'active', 'retired'],
    description: "'none': no pass issued yet; 'active': the pass works; 'retired': its link was revoked, so its QR code opens nothing and it no longer updates (GET /api/get-pass-url/ issues a new one)",
  })
  state!: 'none' | 'active' | 'retired';

  @ApiProperty({ nullable: true, type: String, format: 'date-time', description: "When the last pass was retired ('retired' only)" })
  retired_at!: string | null;
}

export class PassFieldDoc {
  @ApiProperty({ example: 'holder' }) key!: string;
  @ApiProperty({ example: 'CARD HOLDER' }) label!: string;
  @ApiProperty({ example: 'Ada' }) value!: string;
}

export class PassViewDoc {
  @ApiProperty({ format: 'uuid' }) serial_number!: string;
  @ApiProperty({ example: 'Medfolio' }) brand!: string;
  @ApiProperty({ example: 'Medfolio health card' }) description!: string;
  @ApiProperty({ nullable: true, type: String, description: "The holder's first name, or null when kept off the pass" }) holder_name!: string | null;
  @ApiProperty({ description: 'The patient lets the first name show on the pass' }) show_name!: boolean;
  @ApiProperty({ description: "The QR code's content: the pass's own share link" }) qr_url!: string;
  @ApiProperty({ type: [PassFieldDoc] }) header_fields!: PassFieldDoc[];
  @ApiProperty({ type: [PassFieldDoc] }) primary_fields!: PassFieldDoc[];
  @ApiProperty({ type: [PassFieldDoc] }) secondary_fields!: PassFieldDoc[];
  @ApiProperty({ type: [PassFieldDoc], description: 'The back of the pass: what it is and how to revoke it' }) back_fields!: PassFieldDoc[];
  @ApiProperty({ example: 'rgb(15, 118, 110)' }) background_color!: string;
  @ApiProperty({ example: 'rgb(255, 255, 255)' }) foreground_color!: string;
  @ApiProperty({ example: 'rgb(204, 251, 241)' }) label_color!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class PassSettingsBodyDoc {
  @ApiProperty({ description: "Show the holder's first name on the pass" }) show_name!: boolean;
}
