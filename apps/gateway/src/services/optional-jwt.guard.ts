import { Injectable } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';

/** Lets anonymous requests through, but reads the user from a valid bearer token when there is one. */
@Injectable()
export class OptionalJwtGuard extends AuthGuard('jwt') {
  override handleRequest<TUser>(_error: unknown, user: TUser | false): TUser | null {
    return user || null;
  }
}
