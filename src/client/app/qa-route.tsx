import { useMemo } from 'react';
import { useModules } from '../features/catalogue/use-modules.ts';
import { QaPage } from '../features/qa/qa-page.tsx';

/** /qa: the board, with the catalogue's modules to tag and filter questions by (features do not import each other). */
export function QaRoute() {
  const catalogue = useModules();
  const modules = useMemo(() => (catalogue.data ?? []).map(({ slug, name }) => ({ slug, name })), [catalogue.data]);
  return <QaPage modules={modules} />;
}
