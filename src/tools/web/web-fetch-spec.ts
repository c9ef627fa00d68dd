import type { ToolSpec } from '../tool-spec.ts';
import { fetchDomainOf } from './fetch-domain.ts';

/** Only reads, so plan mode offers it; each new domain is asked about, and an "always" covers that domain. */
export const webFetchSpec: ToolSpec<'web_fetch'> = {
  name: 'web_fetch',
  kind: 'fetch',
  scope: (input) => ({ kind: 'domain', key: `domain:${fetchDomainOf(input)}`, alwaysLabel: `fetches from ${fetchDomainOf(input)} this session` }),
};
