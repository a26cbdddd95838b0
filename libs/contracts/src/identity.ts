import { Transform } from 'class-transformer';
import { IsEmail, IsNotEmpty, IsOptional, IsString, Length, Matches, MaxLength, MinLength } from 'class-validator';

/**
 * Account calls (spec section 7). Field names are the spec's; messages are the spec's where it
 * gives them (section 5), and plain sentences elsewhere.
 */
const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const LIMIT = 'Limit exceeded';

export class RegisterDto {
  @Transform(trim)
  @IsString({ message: 'Name is required' })
  @IsNotEmpty({ message: 'Name is required' })
  @MaxLength(100, { message: LIMIT })
  first_name!: string;

  /** The spec's web form sends it empty. */
  @Transform(trim)
  @IsOptional()
  @IsString()
  @MaxLength(100, { message: LIMIT })
  last_name?: string;

  @Transform(trim)
  @IsString({ message: 'Mobile number is required' })
  @IsNotEmpty({ message: 'Mobile number is required' })
  @MaxLength(100, { message: LIMIT })
  phone!: string;

  @Transform(trim)
  @IsString({ message: 'Email is required' })
  @IsNotEmpty({ message: 'Email is required' })
  @MaxLength(100, { message: LIMIT })
  @IsEmail({}, { message: 'Enter a valid e-mail address.' })
  email!: string;

  @IsString({ message: 'Password is required' })
  @IsNotEmpty({ message: 'Password is required' })
  @MinLength(8, { message: 'Password must be at least 8 characters.' })
  @MaxLength(100, { message: LIMIT })
  password!: string;

  @IsString({ message: 'Date of birth is required' })
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'Date of birth must be a date written YYYY-MM-DD.' })
  date_of_birth!: string;
}

export class LoginDto {
  @Transform(trim)
  @IsString({ message: 'Email is required' })
  @IsNotEmpty({ message: 'Email is required' })
  @MaxLength(100, { message: LIMIT })
  email!: string;

  @IsString({ message: 'Password is required' })
  @IsNotEmpty({ message: 'Password is required' })
  @MaxLength(100, { message: LIMIT })
  password!: string;
}

export class EmailDto {
  @Transform(trim)
  @IsString({ message: 'Email is required' })
  @IsNotEmpty({ message: 'Email is required' })
  @MaxLength(100, { message: LIMIT })
  email!: string;
}

export class VerifyOtpDto extends EmailDto {
  @Transform(trim)
  @IsString({ message: 'Code is required' })
  @Length(1, 6, { message: 'Enter the 4-digit code.' })
  otp!: string;
}

export class RefreshDto {
  @IsString({ message: 'Refresh token is required' })
  @IsNotEmpty({ message: 'Refresh token is required' })
  /** Only a sanity bound: any wrong token (an access token too) gets identity's 401, not a 400. */
  @MaxLength(4096, { message: 'Invalid refresh token' })
  refresh!: string;
}

export class LogoutDto {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  refresh?: string;
}

export class ResetPasswordDto extends EmailDto {
  @IsString({ message: 'Password is required' })
  @IsNotEmpty({ message: 'Password is required' })
  @MinLength(8, { message: 'Password must be at least 8 characters.' })
  @MaxLength(100, { message: LIMIT })
  password!: string;

  @IsString({ message: 'The reset link is incomplete.' })
  @IsNotEmpty({ message: 'The reset link is incomplete.' })
  @MaxLength(200, { message: 'The reset link is invalid.' })
  token!: string;
}

export class ChangePasswordDto {
  @IsString({ message: 'Current password is required' })
  @IsNotEmpty({ message: 'Current password is required' })
  @MaxLength(100, { message: LIMIT })
  old_password!: string;

  @IsString({ message: 'New password is required' })
  @IsNotEmpty({ message: 'New password is required' })
  @MinLength(8, { message: 'Password must be at least 8 characters.' })
  @MaxLength(100, { message: LIMIT })
  new_password!: string;
}

export class GoogleLoginDto {
  @IsString({ message: 'Google login failed: No credential returned' })
  @IsNotEmpty({ message: 'Google login failed: No credential returned' })
  @MaxLength(4096, { message: 'Google login failed: the credential is too long' })
  token!: string;
}

export class UpdateProfileDto {
  @Transform(trim)
  @IsString({ message: 'First name is required' })
  @IsNotEmpty({ message: 'First name is required' })
  @MaxLength(100, { message: LIMIT })
  first_name!: string;

  @Transform(trim)
  @IsOptional()
  @IsString()
  @MaxLength(100, { message: LIMIT })
  last_name?: string;

  @Transform(trim)
  @IsString({ message: 'Mobile number is required' })
  @IsNotEmpty({ message: 'Mobile number is required' })
  @MaxLength(100, { message: LIMIT })
  phone!: string;
}

export interface TokenPair {
  access: string;
  refresh: string;
}

export interface MessageReply {
  message: string;
}

export interface ForgotPasswordReply extends MessageReply {
  /** Always null: the secret goes only by e-mail (the spec's client reads this field). */
  token: null;
}

export interface ChangePasswordReply extends MessageReply {
  detail: string;
}

export interface Profile {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  profile_picture: string | null;
  date_of_birth: string | null;
  email_verified: boolean;
}

/** Events identity publishes through its outbox on the IDENTITY stream. */
export interface UserRegisteredEvent {
  user_id: string;
  email: string;
  first_name: string;
}
export type UserVerifiedEvent = UserRegisteredEvent;

export const IDENTITY_SUBJECTS = {
  register: 'identity.user.register',
  login: 'identity.session.login',
  loginWithGoogle: 'identity.session.login-with-google',
  refresh: 'identity.session.refresh',
  logout: 'identity.session.logout',
  verifyOtp: 'identity.otp.verify',
  resendOtp: 'identity.otp.resend',
  forgotPassword: 'identity.password.forgot',
  resetPassword: 'identity.password.reset',
  changePassword: 'identity.password.change',
  getProfile: 'identity.profile.get',
  updateProfile: 'identity.profile.update',
  /** Events */
  registered: 'identity.user.registered.v1',
  verified: 'identity.user.verified.v1',
} as const;
