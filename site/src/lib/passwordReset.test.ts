import { describe, expect, it } from 'vitest';
import { validateNewPassword } from './passwordReset';

describe('validateNewPassword', () => {
  it('applies the password rules before the confirmation', () => {
    expect(validateNewPassword('', '')).toEqual({ password: 'Choose a new password.' });
    expect(validateNewPassword('abc', 'abc')).toEqual({ password: 'Password should be atleast 6 characters!' });
    expect(validateNewPassword('123456', '123456').password).toMatch(/shape of a passcode/);
    expect(validateNewPassword('new-pass-1', 'new-pass-2')).toEqual({ confirm: 'The two passwords do not match.' });
    expect(validateNewPassword('new-pass-1', 'new-pass-1')).toEqual({});
  });
});
