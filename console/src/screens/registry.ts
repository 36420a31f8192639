// The screens of the console, each with the grant it needs to be shown. The dealer persona's screens
// are here; the ops persona adds its own entries (each one a grant and a component).
import type { ComponentType } from 'react';
import { Blotter, Book } from './dealer-reads';
import { Eod } from './dealer-eod';
import { Funding, Kyc, Queue } from './dealer-actions';
import { Actions } from './ops-actions';
import { Audit } from './ops-audit';
import { Access, Sessions } from './ops-access';
import { Alerts, Breaks, Complaints } from './ops-cases';

export interface Screen {
  id: string;
  label: string;
  grant: string;
  Component: ComponentType;
}

export const SCREENS: Screen[] = [
  { id: 'queue', label: 'queue', grant: 'queue:read', Component: Queue },
  { id: 'funding', label: 'funding', grant: 'funding:read', Component: Funding },
  { id: 'kyc', label: 'kyc', grant: 'kyc:read', Component: Kyc },
  { id: 'blotter', label: 'blotter', grant: 'blotter:read', Component: Blotter },
  { id: 'book', label: 'book', grant: 'orderbook:read', Component: Book },
  { id: 'eod', label: 'eod', grant: 'eod:read', Component: Eod },
  // ops persona
  { id: 'actions', label: 'actions', grant: 'actions:read', Component: Actions },
  { id: 'audit', label: 'audit', grant: 'audit:read', Component: Audit },
  { id: 'access', label: 'access', grant: 'access-review:read', Component: Access },
  { id: 'sessions', label: 'sessions', grant: 'sessions:read', Component: Sessions },
  { id: 'breaks', label: 'breaks', grant: 'reconciliation:read', Component: Breaks },
  { id: 'alerts', label: 'alerts', grant: 'surveillance:read', Component: Alerts },
  { id: 'complaints', label: 'complaints', grant: 'complaints:manage', Component: Complaints },
];
