import { ArrowLeft } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { CategoryAvailability } from '../../../common/availability-api.ts';
import { categories, dashboardPathByRole, type Category } from '../../../common/roles.ts';
import { SelectField } from '../../components/form-field.tsx';
import { Notice } from '../../components/notice.tsx';
import { PageMeta } from '../../components/page-meta.tsx';
import { NetworkError } from '../../lib/api.ts';
import { errorText } from '../../lib/error-text.ts';
import { useSession } from '../../lib/session.tsx';
import { availabilityApi } from './availability-api.ts';
import { AvailabilityForm } from './availability-form.tsx';
import { availabilityTexts, useTutorAvailability } from './use-tutor-availability.ts';

/**
 * /availability (issue 36): a tutor sets their own working hours; the admin chooses a category, then one of its
 * tutors, and sets theirs (`?category=…&tutor=…`, so a reload keeps the choice). For tutors and the admin only
 * (router.tsx); the server checks whose hours each call may touch.
 */
export function AvailabilityPage() {
  const { session } = useSession();
  const me = session.me;
  if (!me) return null;
  const admin = me.role === 'admin';
  return (
    <section className="container-page py-10">
      <PageMeta
        title={admin ? 'Tutors’ working hours' : 'Your working hours'}
        description="The weekly hours, dates off and buffer that free session times are worked out from."
      />
      <Link to={dashboardPathByRole[me.role]} className="link inline-flex items-center gap-1">
        <ArrowLeft aria-hidden size={18} />
        Back to dashboard
      </Link>
      <h1 className="mt-4 text-3xl font-bold">{admin ? 'Tutors’ working hours' : 'Your working hours'}</h1>
      {admin ? <ChooseTutor /> : <TutorHours tutorId={me.id} />}
    </section>
  );
}

type TutorList =
  | { status: 'idle' | 'loading' | 'offline' }
  | { status: 'ready'; tutors: CategoryAvailability['tutors'] }
  | { status: 'failed'; message: string };

/** The tutors of the category chosen, by name, read from the server when the category changes. */
function useCategoryTutors(category: Category | undefined) {
  const [attempt, setAttempt] = useState(0);
  // Each answer is kept with the category (and try) it answers, so a newer choice reads as loading until its own.
  const asked = `${category}|${attempt}`;
  const [answer, setAnswer] = useState<{ asked: string; list: TutorList }>();
  useEffect(() => {
    if (!category) return;
    const abort = new AbortController();
    const answered = (list: TutorList) => setAnswer({ asked: `${category}|${attempt}`, list });
    availabilityApi.category(category, abort.signal).then(
      ({ tutors }) => answered({ status: 'ready', tutors: [...tutors].sort((a, b) => a.name.localeCompare(b.name)) }),
      (error: unknown) => {
        if (abort.signal.aborted) return;
        if (error instanceof NetworkError) answered({ status: 'offline' });
        else answered({ status: 'failed', message: errorText(error, 'The tutors could not be loaded.') });
      },
    );
    return () => abort.abort();
  }, [category, attempt]);
  const list: TutorList = !category
    ? { status: 'idle' }
    : answer?.asked === asked
      ? answer.list
      : { status: 'loading' };
  return { list, reload: () => setAttempt((n) => n + 1) };
}

function ChooseTutor() {
  const [params, setParams] = useSearchParams();
  const category = categories.find((c) => c === params.get('category'));
  const tutorId = params.get('tutor') ?? '';
  const { list, reload } = useCategoryTutors(category);
  const tutors = list.status === 'ready' ? list.tutors : [];
  const chosen = tutors.find((t) => t.tutorId === tutorId);
  const choose = (next: { category?: string; tutor?: string }) =>
    setParams(Object.fromEntries(Object.entries(next).filter(([, v]) => v)), { replace: true });

  const tutorPrompt =
    list.status === 'loading'
      ? 'Loading tutors…'
      : list.status === 'ready' && tutors.length === 0
        ? 'No tutors in this category'
        : category
          ? 'Choose a tutor'
          : 'Choose a category first';

  return (
    <>
      <p className="mt-2 max-w-prose text-slate-700 dark:text-slate-300">
        Choose a tutor to see and change their working hours: students booking the tutor’s subjects are offered start
        times inside them.
      </p>
      <div className="mt-6 grid max-w-2xl gap-4 sm:grid-cols-2">
        <SelectField label="Category" value={category ?? ''} onChange={(e) => choose({ category: e.target.value })}>
          <option value="">Choose a category</option>
          {categories.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </SelectField>
        <SelectField
          label="Tutor"
          value={chosen ? tutorId : ''}
          disabled={tutors.length === 0}
          onChange={(e) => choose({ ...(category && { category }), tutor: e.target.value })}
        >
          <option value="">{tutorPrompt}</option>
          {tutors.map((t) => (
            <option key={t.tutorId} value={t.tutorId}>
              {t.name}
            </option>
          ))}
        </SelectField>
      </div>
      {(list.status === 'offline' || list.status === 'failed') && (
        <Notice tone={list.status === 'offline' ? 'offline' : 'error'} className="mt-4 max-w-prose">
          {list.status === 'failed' ? list.message : availabilityTexts.offline}{' '}
          <button type="button" className="link" onClick={reload}>
            Try again
          </button>
        </Notice>
      )}
      {/* A tutor named by the address (a reload, a link) is shown as soon as their hours are read. */}
      {tutorId && (
        <div className="mt-8">
          <h2 className="text-2xl font-semibold">{chosen ? `${chosen.name}’s hours` : 'The tutor’s hours'}</h2>
          <TutorHours key={tutorId} tutorId={tutorId} tutorName={chosen?.name ?? 'The tutor'} />
        </div>
      )}
    </>
  );
}

/**
 * One tutor's hours: loading, offline or refused (with Try again), or the form; a short hint while none are set.
 * `tutorName`: whose, for the admin; left out, they are the signed-in tutor's own.
 */
function TutorHours({ tutorId, tutorName }: { tutorId: string; tutorName?: string }) {
  const { state, reload, put } = useTutorAvailability(tutorId);
  // Without a name, the tutor's own.
  const own = tutorName === undefined;
  return (
    <>
      {own && (
        <p className="mt-2 max-w-prose text-slate-700 dark:text-slate-300">
          Students booking your subjects are offered start times inside these hours, kept clear of your confirmed
          sessions.
        </p>
      )}
      <TutorHoursState state={state} own={own} tutorName={tutorName} reload={reload} put={put} />
    </>
  );
}

function TutorHoursState({
  state,
  own,
  tutorName,
  reload,
  put,
}: ReturnType<typeof useTutorAvailability> & { own: boolean; tutorName: string | undefined }) {
  switch (state.status) {
    case 'loading':
      return (
        <div className="card mt-6 h-96 animate-pulse bg-slate-100 dark:bg-slate-800">
          <span role="status" className="sr-only">
            Loading working hours…
          </span>
        </div>
      );
    case 'offline':
    case 'failed':
      return (
        <Notice tone={state.status === 'offline' ? 'offline' : 'error'} className="mt-6 max-w-prose">
          {state.status === 'offline'
            ? 'You are offline. Working hours can be seen and changed with a connection.'
            : state.message}{' '}
          <button type="button" className="link" onClick={reload}>
            Try again
          </button>
        </Notice>
      );
    case 'ready':
      return (
        <>
          {state.data.updatedAt === null && (
            <Notice tone="info" className="mt-4 max-w-prose">
              {own
                ? 'You have not set your working hours yet. Add the times you can take sessions on each day; until then, students type the times they would like.'
                : 'No working hours are set yet. Until they are, students type the times they would like.'}
            </Notice>
          )}
          <AvailabilityForm
            key={state.data.tutorId}
            record={state.data}
            savedText={own ? 'Your working hours are saved.' : `${tutorName}’s working hours are saved.`}
            onSaved={put}
          />
        </>
      );
  }
}
