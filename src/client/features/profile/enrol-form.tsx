import { useState } from 'react';
import type { Module } from '../../../common/catalogue.ts';
import { enrolInputSchema, profileMessages, type Enrolment } from '../../../common/profile.ts';
import { useConfirm } from '../../components/confirm-dialog.tsx';
import { SelectField } from '../../components/form-field.tsx';
import { isSessionEnded } from '../../lib/api.ts';
import { useFormSubmit } from '../../lib/forms.ts';
import { toast } from '../../lib/toast.ts';
import { refreshSource } from '../../offline/engine.ts';
import { profileApi } from './profile-api.ts';
import { failureText, refuseOffline } from './profile-requests.ts';
import { enrolmentsSource, enrolmentsTable } from './profile.sync.ts';

/** What the enrol form offers: the catalogue's modules, handed in by app/ (features do not import each other). */
export type OfferedModule = Pick<Module, 'id' | 'name'>;

/** Spec §4 Enrolment: enrol in a module not yet enrolled in (asked first). */
export function EnrolForm({ modules, enrolments }: { modules: OfferedModule[] | undefined; enrolments: Enrolment[] }) {
  const confirm = useConfirm();
  const [moduleId, setModuleId] = useState('');
  // Spec §4: a module already enrolled in is not offered again.
  const enrolled = new Set(enrolments.map((e) => e.moduleId));
  const offered = (modules ?? []).filter((m) => !enrolled.has(m.id));

  const { errors, busy, onSubmit } = useFormSubmit({
    schema: enrolInputSchema,
    values: { moduleId },
    // Asked before the button says "Enrolling…": nothing is under way while the question is open.
    confirm: async (data) => {
      const module = offered.find((m) => m.id === data.moduleId);
      if (!module || refuseOffline()) return false;
      return confirm({ title: 'Enroll', message: profileMessages.enrolConfirm(module.name), confirmLabel: 'Enroll' });
    },
    send: async (data) => {
      const module = offered.find((m) => m.id === data.moduleId);
      if (!module || refuseOffline()) return;
      let enrolment: Enrolment;
      try {
        enrolment = await profileApi.enrol(module.id);
      } catch (error) {
        if (isSessionEnded(error)) return;
        toast.error(
          failureText(error, profileMessages.enrolFailed, {
            'profile.already_enrolled': profileMessages.alreadyEnrolled,
            'profile.module_not_found': profileMessages.moduleGone,
          }),
        );
        void refreshSource(enrolmentsSource);
        return;
      }
      await enrolmentsTable.put(enrolment);
      setModuleId('');
      toast.success(profileMessages.enrolled(module.name));
      void refreshSource(enrolmentsSource);
    },
  });

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="mt-6 flex flex-col gap-3 border-t border-slate-200 pt-6 sm:flex-row sm:items-start dark:border-slate-800"
    >
      <SelectField
        label="Enroll in a module"
        name="moduleId"
        className="flex-1"
        value={moduleId}
        onChange={(e) => setModuleId(e.target.value)}
        error={errors.fields.moduleId ?? errors.form}
        hint={modules !== undefined && offered.length === 0 ? 'You are enrolled in every module we offer.' : undefined}
      >
        <option value="">Select a module</option>
        {offered.map((m) => (
          <option key={m.id} value={m.id}>
            {m.name}
          </option>
        ))}
      </SelectField>
      <button type="submit" className="btn-primary sm:mt-7" disabled={busy}>
        {busy ? 'Enrolling…' : 'Enroll'}
      </button>
    </form>
  );
}
