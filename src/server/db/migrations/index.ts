import type { Migration } from 'kysely/migration';
import * as m0001 from './0001-accounts-and-mail.ts';
import * as m0002 from './0002-catalogue-and-enrolments.ts';
import * as m0003 from './0003-questions-and-answers.ts';
import * as m0004 from './0004-email-attachments.ts';
import * as m0005 from './0005-bookings.ts';
import * as m0006 from './0006-change-refusals.ts';
import * as m0007 from './0007-email-template-params.ts';
import * as m0008 from './0008-imported-votes.ts';
import * as m0009 from './0009-email-about-user.ts';
import * as m0010 from './0010-board-search.ts';
import * as m0011 from './0011-users-by-role.ts';
import * as m0012 from './0012-board-search-written-by-the-board.ts';
import * as m0013 from './0013-imported-records.ts';
import * as m0014 from './0014-board-search-rewritten-by-the-import.ts';
import * as m0015 from './0015-testimonials.ts';
import * as m0016 from './0016-tutor-availability.ts';
import * as m0017 from './0017-booking-tutor.ts';
import * as m0018 from './0018-booking-moves.ts';
import * as m0019 from './0019-calendar-feeds.ts';
import * as m0020 from './0020-booking-series.ts';
import * as m0021 from './0021-group-sessions.ts';
import * as m0022 from './0022-payments.ts';
import * as m0023 from './0023-bank-mappings.ts';
import * as m0024 from './0024-ignored-statement-lines.ts';
import * as m0025 from './0025-packages.ts';
import * as m0026 from './0026-payment-ids-in-history.ts';
import * as m0027 from './0027-notices.ts';
import * as m0028 from './0028-post-photos.ts';
import * as m0029 from './0029-board-modules.ts';
import * as m0030 from './0030-sessions-from-questions.ts';
import * as m0031 from './0031-stored-post-html.ts';

/** Every migration, in order. Append only: a landed migration is never edited. */
export const migrations: Record<string, Migration> = {
  '0001-accounts-and-mail': m0001,
  '0002-catalogue-and-enrolments': m0002,
  '0003-questions-and-answers': m0003,
  '0004-email-attachments': m0004,
  '0005-bookings': m0005,
  '0006-change-refusals': m0006,
  '0007-email-template-params': m0007,
  '0008-imported-votes': m0008,
  '0009-email-about-user': m0009,
  '0010-board-search': m0010,
  '0011-users-by-role': m0011,
  '0012-board-search-written-by-the-board': m0012,
  '0013-imported-records': m0013,
  '0014-board-search-rewritten-by-the-import': m0014,
  '0015-testimonials': m0015,
  '0016-tutor-availability': m0016,
  '0017-booking-tutor': m0017,
  '0018-booking-moves': m0018,
  '0019-calendar-feeds': m0019,
  '0020-booking-series': m0020,
  '0021-group-sessions': m0021,
  '0022-payments': m0022,
  '0023-bank-mappings': m0023,
  '0024-ignored-statement-lines': m0024,
  '0025-packages': m0025,
  '0026-payment-ids-in-history': m0026,
  '0027-notices': m0027,
  '0028-post-photos': m0028,
  '0029-board-modules': m0029,
  '0030-sessions-from-questions': m0030,
  '0031-stored-post-html': m0031,
};
