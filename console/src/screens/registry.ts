// The screens of the console, each with the grant it needs to be shown. The dealer persona's screens
// are here; the ops persona adds its own entries (each one a grant and a component).
import type { ComponentType } from 'react';
import { Blotter, Book, Eod } from './dealer-reads';
import { Funding, Kyc, Queue } from './dealer-actions';

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
];
