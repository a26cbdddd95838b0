/**
 * Who is calling. The gateway builds this from the verified access token and the request,
 * and it travels in the `x-caller` message header. Services never take a user id from a
 * payload field the client controls: they read this.
 */
export interface CallerIdentity {
  /** The signed-in user's id; absent for anonymous calls (e.g. a public summary link). */
  userId?: string;
  roles: string[];
  /** The sign-in (refresh token family) the access token belongs to: its `sid` claim. */
  sessionId?: string;
  correlationId: string;
  ip?: string;
  userAgent?: string;
  /**
   * Set when a signed-in person acts on another person's record (a caregiver, a guardian): then
   * `userId` is the record's patient id (so every service keys data as for the patient) and
   * `actor` is who really acted, with their role on that record. Audit records name the actor.
   */
  actor?: CallerActor;
}

export interface CallerActor {
  /** The signed-in person's own user id. */
  userId: string;
  role: 'guardian' | 'manage' | 'view';
}

export const ANONYMOUS_ROLES: readonly string[] = [];
