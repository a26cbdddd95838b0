import { DOCUMENTS_SUBJECTS, IDENTITY_SUBJECTS, type CallerIdentity, type DocumentIdDto, type DownloadLinkReply, type LoginDto, type TokenPair } from '@medfolio/contracts';
import { Handles } from './handles.decorator';
import type { RpcClient } from './rpc-client';

/**
 * Type-level checks, run by the type check (`tsc -p tsconfig.json`): each `@ts-expect-error` line
 * must fail to compile, or the type check fails ("unused @ts-expect-error").
 */
export async function callsAreTypedBySubject(rpc: RpcClient, caller: CallerIdentity): Promise<void> {
  const pair: TokenPair = await rpc.send(IDENTITY_SUBJECTS.login, { email: 'a@example.com', password: 'x' }, caller);
  void pair;
  // @ts-expect-error a login takes an e-mail and a password, not a document id
  await rpc.send(IDENTITY_SUBJECTS.login, { document_id: 'd' }, caller);
  // @ts-expect-error a download link answers a link, not a token pair
  const wrong: TokenPair = await rpc.send(DOCUMENTS_SUBJECTS.downloadLink, { document_id: 'd' }, caller);
  void wrong;
  // @ts-expect-error an unknown subject is not in the contract map
  await rpc.send('identity.nothing.here', {}, caller);
}

export class HandlersAreTypedBySubject {
  @Handles(IDENTITY_SUBJECTS.login)
  login(dto: LoginDto): TokenPair {
    return { access: dto.email, refresh: '' };
  }

  @Handles(DOCUMENTS_SUBJECTS.list)
  listTakesOnlyTheCaller(_caller: CallerIdentity): [] {
    return [];
  }

  // @ts-expect-error the handler of a download link must take a DocumentIdDto first
  @Handles(DOCUMENTS_SUBJECTS.downloadLink)
  wrongPayload(dto: LoginDto): DownloadLinkReply {
    return { download_url: dto.email, filename: '', expires_at: '' };
  }

  // @ts-expect-error the handler of a login must answer a token pair
  @Handles(IDENTITY_SUBJECTS.login)
  wrongReply(_dto: LoginDto): DocumentIdDto {
    return { document_id: '' };
  }
}

describe('request/reply types', () => {
  it('are checked by the type check (see the @ts-expect-error lines above)', () => {
    expect(typeof callsAreTypedBySubject).toBe('function');
  });
});
