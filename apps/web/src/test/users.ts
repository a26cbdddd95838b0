/**
 * The tests' signed-in patient, Ana Lima, as GET /api/profile/ answers for her: verified, no picture.
 * A test that needs her otherwise spreads it (`{ ...ANA, date_of_birth: null }`).
 */
export const ANA = {
  id: 'u1',
  first_name: 'Ana',
  last_name: 'Lima',
  email: 'ana@example.com',
  phone: '+1 202 555 0143',
  profile_picture: null as string | null,
  date_of_birth: '1990-03-04' as string | null,
  email_verified: true,
};
