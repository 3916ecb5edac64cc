import { GroupSessionsOffer } from '../features/bookings/group-sessions.tsx';
import { ModulePage } from '../features/catalogue/module-page.tsx';
import { ModuleQuestions } from '../features/qa/module-questions.tsx';

/**
 * /modules/:slug: the catalogue's module, and under it the bookings' open group sessions of it (issue 36) and the
 * board's latest questions about it (issue 39 §3).
 */
export function ModuleRoute() {
  return (
    <ModulePage
      extra={(module) => (
        <>
          <GroupSessionsOffer moduleName={module.name} />
          <ModuleQuestions slug={module.slug} name={module.name} />
        </>
      )}
    />
  );
}
