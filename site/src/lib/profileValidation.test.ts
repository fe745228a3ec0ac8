import { describe, expect, it } from 'vitest';
import {
  changesSignIn,
  checkReauth,
  isValidPhone,
  NO_REAUTH,
  reauthPayload,
  toProfilePayload,
  validateProfile,
  type ProfileInput,
} from './profileValidation';

const good: ProfileInput = {
  username: 'admin',
  email: 'admin@example.com',
  phone: '5551234567',
  password: '',
  passcode: '',
};

describe('validateProfile', () => {
  it('accepts a valid profile', () => {
    expect(validateProfile(good)).toEqual({ message: null, errors: {} });
  });
  it('requires username, email and phone', () => {
    for (const field of ['username', 'email', 'phone'] as const) {
      const r = validateProfile({ ...good, [field]: '  ' });
      expect(r.message).toBe('Please fillup mandatory fields!');
      expect(r.errors[field]).toBe('Please fillup mandatory fields!');
    }
  });
  it('rejects a bad email', () => {
    const r = validateProfile({ ...good, email: 'not-an-email' });
    expect(r.message).toBe('Please enter a valid email!');
    expect(r.errors.email).toBe('Please enter a valid email!');
  });
  it.each(['12345', '12345678901', '555123456a', '555.123.45'])('rejects phone %s', (phone) => {
    const r = validateProfile({ ...good, phone });
    expect(r.message).toBe('Please enter a 10 digit phone number!');
  });
  it.each(['5551234567', '555-123-45', '(555) 1234', '+1 555 123'])('accepts phone %s', (phone) => {
    expect(isValidPhone(phone)).toBe(true);
  });
  it('rejects a short password but allows an empty one', () => {
    expect(validateProfile({ ...good, password: '12345' }).message).toBe('Password should be atleast 6 characters!');
    expect(validateProfile({ ...good, password: '' }).message).toBeNull();
    expect(validateProfile({ ...good, password: 'secret1' }).message).toBeNull();
  });
  it('rejects a passcode that is not 6 digits', () => {
    expect(validateProfile({ ...good, passcode: '12345' }).message).toBe('Passcode must be exactly 6 digits!');
    expect(validateProfile({ ...good, passcode: '123456' }).message).toBeNull();
  });
  it('reports the first problem as message and all inline', () => {
    const r = validateProfile({ ...good, email: 'x', phone: '1', password: '1' });
    expect(r.message).toBe('Please enter a valid email!');
    expect(Object.keys(r.errors).sort()).toEqual(['email', 'password', 'phone']);
  });
});

describe('toProfilePayload', () => {
  it('omits empty secrets', () => {
    expect(toProfilePayload({ ...good, username: ' admin ' })).toEqual({
      username: 'admin',
      email: 'admin@example.com',
      phone: '5551234567',
    });
  });
  it('includes typed secrets', () => {
    expect(toProfilePayload({ ...good, password: 'secret1', passcode: '123456' })).toMatchObject({
      password: 'secret1',
      passcode: '123456',
    });
  });
});

// A new password or passcode, and the two-factor changes, ask for the current password (and a
// code where two-factor sign-in is on): the API refuses them without (issue 40).
describe('changesSignIn', () => {
  it('is true once a new password or passcode is typed', () => {
    expect(changesSignIn(good)).toBe(false);
    expect(changesSignIn({ ...good, password: 'n' })).toBe(true);
    expect(changesSignIn({ ...good, passcode: '1' })).toBe(true);
  });
});

describe('checkReauth', () => {
  it('asks for the current password', () => {
    expect(checkReauth(NO_REAUTH, false)).toEqual({ password: 'Enter your current password.' });
    expect(checkReauth({ ...NO_REAUTH, password: 'old-pass-1' }, false)).toEqual({});
  });
  it('asks for a code, or a recovery code, where two-factor sign-in is on', () => {
    expect(checkReauth({ ...NO_REAUTH, password: 'old-pass-1' }, true)).toEqual({ code: 'Enter the code from your authenticator app.' });
    expect(checkReauth({ password: 'old-pass-1', code: ' ', recovery: true }, true)).toEqual({ code: 'Enter one of your recovery codes.' });
    expect(checkReauth({ password: 'old-pass-1', code: '123456', recovery: false }, true)).toEqual({});
  });
});

describe('reauthPayload', () => {
  it('names the current password as the route does', () => {
    expect(reauthPayload({ ...NO_REAUTH, password: 'old-pass-1' }, false)).toEqual({ password: 'old-pass-1' });
    expect(reauthPayload({ ...NO_REAUTH, password: 'old-pass-1' }, false, 'currentPassword')).toEqual({ currentPassword: 'old-pass-1' });
  });
  it('sends the code or the recovery code only where two-factor sign-in is on', () => {
    expect(reauthPayload({ password: 'p', code: '123456', recovery: false }, false)).toEqual({ password: 'p' });
    expect(reauthPayload({ password: 'p', code: '123456', recovery: false }, true)).toEqual({ password: 'p', code: '123456' });
    expect(reauthPayload({ password: 'p', code: ' abcd-efgh-jkmn ', recovery: true }, true)).toEqual({ password: 'p', recoveryCode: 'abcd-efgh-jkmn' });
  });
});
