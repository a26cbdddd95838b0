import { parseServiceAccount } from './google-wallet';

describe('parseServiceAccount', () => {
  it('takes the e-mail and key of a JSON key, and names what is missing', () => {
    expect(parseServiceAccount('{"type":"service_account","client_email":"a@b.iam.gserviceaccount.com","private_key":"the-key-text"}')).toEqual({
      client_email: 'a@b.iam.gserviceaccount.com',
      private_key: 'the-key-text',
    });
    expect(() => parseServiceAccount('{"private_key":"k"}')).toThrow('GOOGLE_WALLET_SERVICE_ACCOUNT needs client_email and private_key.');
    expect(() => parseServiceAccount('not json')).toThrow('GOOGLE_WALLET_SERVICE_ACCOUNT is not valid JSON.');
  });
});
