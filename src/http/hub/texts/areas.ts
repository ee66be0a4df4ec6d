import { accounts } from './accounts.ts';
import { catalog } from './catalog.ts';
import { desk } from './desk.ts';
import { developer } from './developer.ts';
import { fiscal } from './fiscal.ts';
import { help } from './help.ts';
import { inbox } from './inbox.ts';
import { invoices } from './invoices.ts';
import { making } from './making.ts';
import { shell } from './shell.ts';
import { mail } from './mail.ts';
import { reports } from './reports.ts';
import { shop } from './shop.ts';
import { purchases } from './purchases.ts';
import { till } from './till.ts';

/** The hub's message areas; each file holds one area in all three languages. Add a new area here. */
export const HUB_AREAS = [
  shell,
  accounts,
  developer,
  desk,
  inbox,
  catalog,
  fiscal,
  help,
  invoices,
  making,
  mail,
  reports,
  shop,
  purchases,
  till,
] as const;
