import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { HttpError } from './errors';
import { idParam, MAX_PAGE, pageQuery, parsedOr400 } from './input';

/** The 400 that parsedOr400 throws for `value`, as its status and message. */
function refusal(run: () => unknown) {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    return { status: (error as HttpError).statusCode, message: (error as HttpError).message };
  }
  throw new Error('parsed without a refusal');
}

describe('parsedOr400', () => {
  const schema = z.object({ name: z.string().check(z.minLength(2, 'Too short.')) });

  it('answers the parsed value', () => {
    expect(parsedOr400(schema, { name: 'Ann', extra: 1 })).toEqual({ name: 'Ann' });
  });

  it('refuses with the first problem as is, after a name, or as a function tells it', () => {
    expect(refusal(() => parsedOr400(schema, { name: 'A' }))).toEqual({
      status: 400,
      message: 'Too short.',
    });
    // One period at the end, whether or not the schema's message has one.
    expect(refusal(() => parsedOr400(schema, { name: 'A' }, 'Invalid name'))).toEqual({
      status: 400,
      message: 'Invalid name: Too short.',
    });
    expect(
      refusal(() => parsedOr400(z.object({ n: z.number('no number') }), {}, 'Invalid filter')),
    ).toEqual({ status: 400, message: 'Invalid filter: no number.' });
    expect(
      refusal(() =>
        parsedOr400(schema, null, (error) => `${error.issues.length} problem(s) at the root`),
      ),
    ).toEqual({ status: 400, message: '1 problem(s) at the root' });
  });
});

describe('pageQuery', () => {
  const notAPage = `The page must be a whole number from 0 to ${MAX_PAGE}.`;

  it('reads the page, the first one when absent, and leaves the rest of the query alone', () => {
    expect(parsedOr400(pageQuery, {})).toEqual({ page: 0 });
    expect(parsedOr400(pageQuery, { page: '0', q: 'x' })).toEqual({ page: 0 });
    expect(parsedOr400(pageQuery, { page: '42' })).toEqual({ page: 42 });
    expect(parsedOr400(pageQuery, { page: String(MAX_PAGE) })).toEqual({ page: MAX_PAGE });
  });

  it('refuses anything but digits up to MAX_PAGE, naming the range', () => {
    expect(MAX_PAGE).toBe(10_000_000);
    for (const page of [
      '-1',
      '1.5',
      'x',
      '',
      ' 1',
      '1e3',
      '0x10',
      String(MAX_PAGE + 1),
      '9'.repeat(20),
    ]) {
      expect(
        refusal(() => parsedOr400(pageQuery, { page })),
        page,
      ).toEqual({
        status: 400,
        message: notAPage,
      });
    }
    expect(refusal(() => parsedOr400(pageQuery, { page: ['1', '2'] }))).toEqual({
      status: 400,
      message: notAPage,
    });
  });
});

describe('idParam', () => {
  const notAnId = 'The id must be a positive whole number.';

  it('reads a positive whole number up to the largest exact one', () => {
    expect(parsedOr400(idParam, { id: '1', table: 'x' })).toEqual({ id: 1 });
    expect(parsedOr400(idParam, { id: '9007199254740991' })).toEqual({
      id: Number.MAX_SAFE_INTEGER,
    });
  });

  it('refuses zero, signs, fractions, leading zeros, exponents and inexact numbers', () => {
    for (const id of [
      '0',
      '-1',
      '+1',
      '1.5',
      '01',
      '1e3',
      'abc',
      '',
      '9007199254740993',
      '1'.repeat(17),
    ]) {
      expect(
        refusal(() => parsedOr400(idParam, { id })),
        id,
      ).toEqual({
        status: 400,
        message: notAnId,
      });
    }
    expect(refusal(() => parsedOr400(idParam, {}))).toEqual({ status: 400, message: notAnId });
  });
});
