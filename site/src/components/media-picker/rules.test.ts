import { describe, expect, it } from 'vitest';
import {
  MAX_UPLOAD_BYTES,
  MSG_EMPTY,
  MSG_NOT_IMAGE,
  MSG_TOO_LARGE,
  checkUploadFile,
  formEntries,
  mediaFilter,
  mediaTypeOf,
  s3ErrorMessage,
} from './rules';
import { keys } from '../../api/dataProvider';
import { MEDIA_NAME_TRIM_AT, formatBytes, trimText } from '../../lib/format';

describe('mediaTypeOf (SPEC §5)', () => {
  it.each([
    ['image/png', 'IMAGE'],
    ['image/jpeg', 'IMAGE'],
    ['video/mp4', 'VIDEO'],
    ['audio/mpeg', 'AUDIO'],
    ['application/pdf', 'DOCUMENT'],
    ['application/msword', 'DOCUMENT'],
    ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'DOCUMENT'],
    ['application/vnd.ms-excel', 'DOCUMENT'],
    ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'DOCUMENT'],
    ['application/vnd.ms-powerpoint', 'DOCUMENT'],
    ['application/vnd.openxmlformats-officedocument.presentationml.presentation', 'DOCUMENT'],
    ['text/plain; charset=utf-8', 'DOCUMENT'],
    ['text/csv', 'OTHER'],
    ['application/zip', 'OTHER'],
    ['', 'OTHER'],
  ])('%s → %s', (mime, want) => expect(mediaTypeOf(mime)).toBe(want));
});

describe('checkUploadFile', () => {
  it.each([
    ['exactly 5 MB', { size: MAX_UPLOAD_BYTES, type: 'image/png' }, 'file', null],
    ['5 MB + 1 byte', { size: MAX_UPLOAD_BYTES + 1, type: 'image/png' }, 'file', MSG_TOO_LARGE],
    ['6 MB', { size: 6 * 1024 * 1024, type: 'application/pdf' }, 'file', MSG_TOO_LARGE],
    ['empty', { size: 0, type: 'text/plain' }, 'file', MSG_EMPTY],
    ['PDF in a file picker', { size: 10, type: 'application/pdf' }, 'file', null],
    ['PDF in an image picker', { size: 10, type: 'application/pdf' }, 'image', MSG_NOT_IMAGE],
    ['SVG in an image picker', { size: 10, type: 'image/svg+xml' }, 'image', MSG_NOT_IMAGE],
    ['unknown type in an image picker', { size: 10, type: '' }, 'image', MSG_NOT_IMAGE],
    ['JPEG in an image picker', { size: 10, type: 'image/jpeg' }, 'image', null],
  ] as const)('%s', (_name, file, accept, want) => expect(checkUploadFile(file, accept)).toBe(want));
});

describe('display rules (SPEC §9)', () => {
  it('trims media names at 40 characters', () => {
    const name = 'a'.repeat(41) + '.png';
    expect(trimText(name, MEDIA_NAME_TRIM_AT)).toBe('a'.repeat(40) + '...');
    expect(trimText('a'.repeat(40), MEDIA_NAME_TRIM_AT)).toBe('a'.repeat(40));
  });
  it('shows KB, or MB when over 1 MB', () => {
    expect(formatBytes(2048)).toBe('2 KB');
    expect(formatBytes(1024 * 1024)).toBe('1024 KB');
    expect(formatBytes(MAX_UPLOAD_BYTES)).toBe('5 MB');
    expect(formatBytes(1.5 * 1024 * 1024)).toBe('1.5 MB');
  });
});

describe('presigned form', () => {
  it('keeps every field and never a file entry, so the file can go last', () => {
    const entries = formEntries({ key: 'uploads/t/x/a.png', 'Content-Type': 'image/png', policy: 'p', file: 'x' });
    expect(entries.map(([k]) => k)).toEqual(['key', 'Content-Type', 'policy']);
  });
});

describe('s3ErrorMessage', () => {
  it.each([
    [400, '<Error><Code>EntityTooLarge</Code><Message>Your proposed upload exceeds the maximum allowed size</Message></Error>', MSG_TOO_LARGE],
    [403, '<Error><Code>AccessDenied</Code><Message>Invalid according to Policy: Policy expired.</Message></Error>', 'The upload link expired. Please try again.'],
    [403, '<Error><Code>AccessDenied</Code><Message>Invalid according to Policy</Message></Error>', 'The upload failed (AccessDenied). Please try again.'],
    [0, '', 'The upload failed: the file storage could not be reached. Check your connection and try again.'],
    [500, 'oops', 'The upload failed (status 500). Please try again.'],
  ])('%i %s', (status, body, want) => expect(s3ErrorMessage(status, body)).toBe(want));
});

describe('mediaFilter', () => {
  it('pages, searches and narrows to images', () => {
    expect(keys.list('media', { page: 2, limit: 20, search: ' gate ', filter: mediaFilter('image') })).toBe('/media?page=2&limit=20&search=gate&mediaType=IMAGE');
    expect(keys.list('media', { page: 1, limit: 10, search: '', filter: mediaFilter('file') })).toBe('/media?page=1&limit=10');
  });
});
