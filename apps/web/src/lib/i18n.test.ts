import { describe, expect, it } from 'vitest';
import { namespacesForPath } from './i18n.ts';

describe('namespacesForPath', () => {
  it('gives the home page its prerendered namespaces', () => {
    expect(namespacesForPath('/')).toEqual(['common', 'home', 'market']);
  });

  it('adds the own namespace of the product pages with islands', () => {
    expect(namespacesForPath('/product/earn')).toEqual(['common', 'marketing', 'funds']);
    expect(namespacesForPath('/loan')).toEqual(['common', 'marketing', 'loans']);
    expect(namespacesForPath('/loan/')).toEqual(['common', 'marketing', 'loans']);
    expect(namespacesForPath('/exchange')).toEqual(['common', 'marketing', 'exchange']);
  });

  it('keeps the other public pages on marketing only', () => {
    expect(namespacesForPath('/product/fiscard')).toEqual(['common', 'marketing']);
    expect(namespacesForPath('/about')).toEqual(['common', 'marketing']);
  });
});
