import { Award, EyeOff } from 'lucide-react';
import { Link } from 'react-router-dom';
import { otherModule, qaMessages, type Author, type QuestionModule } from '../../../common/qa.ts';

const badgeClass = 'inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold';

/** The board filtered by a module (`other`: none), as the module tag and a module's page link to it. */
export const boardOfModule = (slug: string) => `/qa?module=${encodeURIComponent(slug)}`;

/** The module a question is tagged with, linking to the board filtered by it; "Other" for none. */
export function ModuleTag({ module }: { module: QuestionModule | undefined }) {
  return (
    <Link
      to={boardOfModule(module?.slug ?? otherModule)}
      className={`${badgeClass} min-h-6 bg-slate-100 text-slate-800 hover:underline dark:bg-slate-800 dark:text-slate-200`}
    >
      {module?.name ?? 'Other'}
    </Link>
  );
}

export function EndorsedBadge() {
  return (
    <span className={`${badgeClass} bg-sky-100 text-sky-900 dark:bg-sky-900 dark:text-sky-100`}>
      <Award aria-hidden size={14} /> {qaMessages.endorsed}
    </span>
  );
}

/**
 * Who asked an anonymous question, for those who may know (tutors, the admin, the asker): the name with a mark
 * saying classmates do not see it. Everyone else sees the author the board names ("Anonymous student").
 */
export function shownAuthor(author: Author, revealed: { author: Author; mine: boolean } | undefined): Author {
  return revealed ? revealed.author : author;
}

export function AnonymousMark({ mine }: { mine: boolean }) {
  return (
    <span className={`${badgeClass} bg-violet-100 text-violet-900 dark:bg-violet-900 dark:text-violet-100`}>
      <EyeOff aria-hidden size={14} /> {mine ? 'You asked anonymously' : 'Anonymous to students'}
    </span>
  );
}
