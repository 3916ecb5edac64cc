import { ArrowLeft } from 'lucide-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import type { Module } from '../../../common/catalogue.ts';
import { PageMeta } from '../../components/page-meta.tsx';
import { BookingForm, BookingFormSkeleton } from './booking-form.tsx';
import { moduleInfo } from './booking-rules.ts';
import { moduleFromState, storeChosenModule, storedChosenModule, type ChosenModule } from './chosen-module.ts';
import { ChooseModule } from './choose-module.tsx';
import { GroupSessionsOffer } from './group-sessions.tsx';
import { ModuleSummary } from './module-summary.tsx';

/**
 * /booking (spec §2 Booking page, §4 Booking form, §5, §8 Booking): the module chosen with Book Now (or the
 * last one chosen on this device), and the form. The form is a draft in IndexedDB until the server accepts the
 * request; offline, the request waits in the outbox and is sent when the connection returns, and the student
 * goes on to the dashboard as they do online (use-draft-request.ts). `modules`: the catalogue, handed in by
 * app/ (features do not import each other); undefined until it has been read.
 */
export function BookingPage({ modules }: { modules: Module[] | undefined }) {
  const { state } = useLocation();
  // A tutor's offer on a question (issue 39 §4) opens `?question=<id>`, and `&module=` once questions have one.
  const [params, setParams] = useSearchParams();
  const moduleParam = params.get('module');
  const fromState = useMemo(
    () => moduleFromState(state) ?? (moduleParam ? { name: moduleParam } : null),
    [state, moduleParam],
  );
  const questionId = params.get('question') ?? undefined;
  // Once in the draft, the question leaves the address: a reload restores the draft, link removed or not.
  const linked = useCallback(() => setParams({}, { replace: true, state }), [setParams, state]);
  const [chosen, setChosen] = useState<ChosenModule | null>(() => fromState ?? storedChosenModule());

  useEffect(() => {
    if (fromState) storeChosenModule(fromState);
  }, [fromState]);

  const choose = (module: ChosenModule) => {
    storeChosenModule(module);
    setChosen(module);
  };

  const info = chosen && modules ? moduleInfo(chosen.name, modules) : undefined;
  return (
    <div className="container-page py-8 sm:py-10">
      <PageMeta
        title="Book a session"
        description="Book a one-on-one tutoring session: choose a date, three times that suit you and what you need help with."
      />
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Book a session</h1>
      {!chosen ? (
        <ChooseModule onChoose={choose} />
      ) : (
        <div className="mt-6 grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
          <ModuleSummary name={chosen.name} info={info} />
          {info ? <BookingForm module={info} link={{ questionId, linked }} /> : <BookingFormSkeleton />}
        </div>
      )}
      {chosen && <GroupSessionsOffer moduleName={chosen.name} />}
      <p className="mt-8">
        <Link to="/offers" className="link inline-flex min-h-11 items-center gap-1">
          <ArrowLeft aria-hidden size={18} />
          Back to Courses
        </Link>
      </p>
    </div>
  );
}
