import { Injectable, type ExecutionContext } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';

/**
 * The share reads answer 404 to a signed-out caller (a summary's existence is not revealed), but a
 * token that is sent must be valid (401), so the web app still refreshes an expired one. The
 * route table calls this `bearer-if-sent`.
 */
@Injectable()
export class TokenIfSentGuard extends AuthGuard('jwt') {
  override canActivate(context: ExecutionContext) {
    const req = context.switchToHttp().getRequest<{ headers: Record<string, string | string[] | undefined> }>();
    return req.headers['authorization'] ? super.canActivate(context) : true;
  }
}
