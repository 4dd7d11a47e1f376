import { describe, expect, it } from 'vitest';
import { asNumber, asObject, asString, asText, isObject, parseJson } from './json';

describe('the JSON guards', () => {
  it('take a plain object and nothing else for an object', () => {
    expect(isObject({ a: 1 })).toBe(true);
    for (const other of [null, [], 'x', 3, undefined]) expect(isObject(other)).toBe(false);
    expect(asObject([1])).toBeNull();
    expect(asObject({ b: 2 })).toEqual({ b: 2 });
  });

  it('give strings, non-empty texts and finite numbers, else null (never coerced)', () => {
    expect(asString('')).toBe('');
    expect(asText('')).toBeNull();
    expect(asText('id')).toBe('id');
    expect(asString(3)).toBeNull();
    expect(asNumber(Number.NaN)).toBeNull();
    expect(asNumber('3')).toBeNull();
    expect(asNumber(3)).toBe(3);
  });

  it('parse JSON or answer undefined', () => {
    expect(parseJson('{"a":[1]}')).toEqual({ a: [1] });
    expect(parseJson('null')).toBeNull();
    expect(parseJson('{"a":')).toBeUndefined();
  });
});
