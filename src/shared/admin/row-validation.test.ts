import { describe, expect, it } from 'vitest';
import { fieldTypeProblem, isBlankRichText, requiredProblem } from './row-validation';
import type { FieldConfig } from './table-config';

const field = (type: string, required = true): FieldConfig => ({
  db_name: 'f',
  ui_name: 'Some Field',
  type,
  required,
});

describe('isBlankRichText', () => {
  it.each([
    '',
    '<p><br></p>',
    '<p> &nbsp; </p><p>&#160;</p>',
    '<p>\u200b\ufeff</p>',
    '<img src="">',
  ])('counts %j as empty', (html) => expect(isBlankRichText(html)).toBe(true));
  it.each([
    '<p>a</p>',
    '<p><img src="data:image/png;base64,AA=="></p>',
    '<iframe class="ql-video" src="https://example.com/v"></iframe>',
    '&amp;',
  ])('counts %j as content', (html) => expect(isBlankRichText(html)).toBe(false));
});

describe('requiredProblem', () => {
  it('refuses missing, null and blank values with the message of SPEC.md §5', () => {
    for (const value of [undefined, null, '', '  \n\t']) {
      expect(requiredProblem(field('text'), value)).toBe('Field "Some Field" is required.');
    }
    expect(requiredProblem(field('rich_text'), '<p><br></p>')).toBe(
      'Field "Some Field" is required.',
    );
    expect(requiredProblem(field('number'), null)).toBe('Field "Some Field" is required.');
  });

  it('accepts a value, zero and false, an optional field, and never applies to id or checkbox', () => {
    expect(requiredProblem(field('text'), ' x ')).toBeNull();
    expect(requiredProblem(field('number'), 0)).toBeNull();
    expect(requiredProblem(field('text', false), null)).toBeNull();
    expect(requiredProblem(field('checkbox'), undefined)).toBeNull();
    expect(requiredProblem(field('id'), undefined)).toBeNull();
  });
});

describe('fieldTypeProblem', () => {
  it('wants a finite number or null for a number', () => {
    expect(fieldTypeProblem(field('number'), 12.5)).toBeNull();
    expect(fieldTypeProblem(field('number'), null)).toBeNull();
    for (const value of ['12', Infinity, NaN, true]) {
      expect(fieldTypeProblem(field('number'), value)).toBe('Field "Some Field" must be a number.');
    }
  });

  it('wants an ISO 8601 date and time with a zone, that exists, or null for a timestamp', () => {
    for (const value of [
      '2025-05-15T09:30:00Z',
      '2025-05-15T09:30:00.123456Z',
      '2025-05-15T09:30+02:00',
      '2024-02-29T23:59:59-05:30',
      null,
    ]) {
      expect(fieldTypeProblem(field('timestamp'), value), String(value)).toBeNull();
    }
    for (const value of [
      '2025-05-15T09:30:00',
      '2025-05-15',
      '2025-02-29T10:00:00Z',
      '2025-13-01T10:00:00Z',
      '2025-05-15T24:00:00Z',
      'yesterday',
      1_747_301_400_000,
    ]) {
      expect(fieldTypeProblem(field('timestamp'), value), String(value)).toBe(
        'Field "Some Field" must be a date and time with a time zone, like 2025-05-15T09:30:00Z.',
      );
    }
  });

  it('wants a boolean for a checkbox, and text or null for every other type', () => {
    expect(fieldTypeProblem(field('checkbox'), false)).toBeNull();
    for (const value of [null, 'true', 1]) {
      expect(fieldTypeProblem(field('checkbox'), value)).toBe(
        'Field "Some Field" must be true or false.',
      );
    }
    for (const type of ['text', 'rich_text', 'web_url', 'address', 'something_new']) {
      expect(fieldTypeProblem(field(type), 'x')).toBeNull();
      expect(fieldTypeProblem(field(type), null)).toBeNull();
      expect(fieldTypeProblem(field(type), 5)).toBe('Field "Some Field" must be text.');
    }
  });
});
