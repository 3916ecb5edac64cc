import { Plus, UsersRound } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { bookingLimits, type Booking } from '../../../common/bookings.ts';
import type { Module } from '../../../common/catalogue.ts';
import { groupLimits, groupMessages, openGroupInputSchema, type GroupSession } from '../../../common/groups.ts';
import { formatRand, randToCents } from '../../../common/money.ts';
import { FormField, SelectField } from '../../components/form-field.tsx';
import { Notice } from '../../components/notice.tsx';
import { normalizeTime } from '../../components/time-input.tsx';
import { useFormSubmit } from '../../lib/forms.ts';
import { useHydrated } from '../../lib/hydrated.ts';
import { groupWhen, GroupsLoading } from './group-sessions.tsx';
import { groupsApi } from './groups-api.ts';
import { useConfirmData } from './use-confirm-data.ts';
import { useStaffBookings } from './use-bookings.ts';
import { useGroupSessions, type GroupSessionsState } from './use-group-sessions.ts';

const muted = 'text-slate-700 dark:text-slate-300';

interface Values {
  module: string;
  date: string;
  start: string;
  hours: string;
  seats: string;
  price: string;
  tutorId: string;
}

const emptyValues: Values = { module: '', date: '', start: '', hours: '2', seats: '4', price: '', tutorId: '' };

/** The admin's Groups tab: every group, and the names from every booking on the device. */
export function AdminGroups({ modules }: { modules: readonly Module[] | undefined }) {
  const state = useGroupSessions({});
  const bookings = useStaffBookings({}, undefined);
  return <StaffGroups role="admin" categories={[]} modules={modules} state={state} bookings={bookings.data} />;
}

/**
 * Group sessions on the staff dashboards (issue 36): open one for a module of your categories (the admin: any,
 * naming its tutor), and the coming ones with who is coming, the names read from the bookings on the device.
 * `modules`: the catalogue, handed in by app/; `state`: the groups as read (useGroupSessions); `bookings`: the
 * staff member's bookings on the device, the seats among them. The tutor's dashboard reads both before it shows
 * this, so that nothing grows under the tutor's eyes.
 */
export function StaffGroups({
  role,
  categories,
  modules,
  state: { groups, failed, online, reload },
  bookings,
}: {
  role: 'tutor' | 'admin';
  categories: readonly string[];
  modules: readonly Module[] | undefined;
  state: GroupSessionsState;
  bookings: readonly Booking[] | undefined;
}) {
  const headingId = useId();
  const [opening, setOpening] = useState(false);
  const [opened, setOpened] = useState(false);
  // Rendered at build time (the dashboards' stand-in, decision 0013): nothing takes a click before it is hydrated.
  const hydrated = useHydrated();
  const shown = (groups ?? []).filter((g) => role === 'admin' || categories.includes(g.moduleCategory));
  const ownModules = (modules ?? []).filter((m) => role === 'admin' || categories.includes(m.category));
  const seated = useMemo(() => {
    const byGroup = new Map<string, string[]>();
    for (const b of bookings ?? [])
      if (b.group && b.status !== 'Cancelled')
        byGroup.set(b.group.id, [...(byGroup.get(b.group.id) ?? []), b.student.name]);
    return byGroup;
  }, [bookings]);

  // A seat taken or given back reaches the device as its booking (a live notice): the counts are read again.
  const seatsSeen = (bookings ?? [])
    .filter((b) => b.group)
    .map((b) => `${b.id}:${b.version}`)
    .join();
  const firstSeen = useRef(true);
  useEffect(() => {
    if (firstSeen.current) firstSeen.current = false;
    else reload();
  }, [seatsSeen, reload]);

  if (role === 'tutor' && categories.length === 0) return null;
  return (
    <section aria-labelledby={headingId} className="mt-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={headingId} className="flex items-center gap-2 text-xl font-semibold">
          <UsersRound aria-hidden size={20} />
          Group sessions
        </h2>
        {!opening && (
          <button
            type="button"
            className="btn-secondary"
            disabled={!online || !hydrated}
            onClick={() => {
              setOpening(true);
              setOpened(false);
            }}
          >
            <Plus aria-hidden size={18} />
            Open a group session
          </button>
        )}
      </div>
      {!online && (
        <Notice tone="offline" className="mt-4">
          Group sessions and their seats show, and can be opened, once the connection is back.
        </Notice>
      )}
      {opened && (
        <Notice tone="info" className="mt-4">
          {groupMessages.opened}
        </Notice>
      )}
      {opening && (
        <OpenGroupForm
          role={role}
          modules={ownModules}
          onCancel={() => setOpening(false)}
          onOpened={() => {
            setOpening(false);
            setOpened(true);
            reload();
          }}
        />
      )}
      <GroupsLoading state={{ groups, failed, online, reload }} />
      {groups && shown.length === 0 && <p className={`mt-4 ${muted}`}>No group sessions coming up.</p>}
      {shown.length > 0 && (
        <ul className="mt-4 grid gap-3 md:grid-cols-2">
          {shown.map((group) => (
            <GroupCard key={group.id} group={group} names={seated.get(group.id) ?? []} />
          ))}
        </ul>
      )}
    </section>
  );
}

function GroupCard({ group, names }: { group: GroupSession; names: readonly string[] }) {
  return (
    <li className="card">
      <p className="font-semibold">{group.moduleName}</p>
      <p className={muted}>{groupWhen(group)}</p>
      <p className={muted}>
        With {group.tutorName} · {formatRand(group.priceCents)} per student
      </p>
      <p className="mt-2 font-medium">
        {group.taken} of {group.seats} seats taken
      </p>
      <p className={`mt-1 text-sm ${muted}`}>
        {names.length > 0 ? `Who is coming: ${[...names].sort().join(', ')}` : 'No one has taken a seat yet.'}
      </p>
    </li>
  );
}

function OpenGroupForm({
  role,
  modules,
  onCancel,
  onOpened,
}: {
  role: 'tutor' | 'admin';
  modules: readonly Module[];
  onCancel: () => void;
  onOpened: () => void;
}) {
  const [values, setValues] = useState<Values>(emptyValues);
  // The group's id: a repeat of this form's request (its answer lost) opens nothing new.
  const [id] = useState(() => crypto.randomUUID());
  const category = modules.find((m) => m.name === values.module)?.category;
  const { tutorsOf } = useConfirmData(role, category ? [category] : []);
  const tutors = role === 'admin' && category ? tutorsOf(category) : [];
  const price = randToCents(values.price);
  const { errors, busy, onSubmit } = useFormSubmit({
    schema: openGroupInputSchema,
    values: {
      id,
      module: values.module,
      date: values.date,
      start: values.start,
      hours: Number(values.hours),
      seats: Number(values.seats),
      priceCents: price ?? -1,
      ...(values.tutorId ? { tutorId: values.tutorId } : {}),
    },
    send: async (input) => {
      await groupsApi.open(input);
      onOpened();
    },
  });
  const set = (key: keyof Values) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
    setValues((v) => ({ ...v, [key]: e.target.value }));

  return (
    <form
      noValidate
      onSubmit={(e) => void onSubmit(e)}
      className="card mt-4 grid gap-4 sm:grid-cols-2"
      aria-label="Open a group session"
    >
      {errors.form && (
        <Notice tone="error" className="sm:col-span-2">
          {errors.form}
        </Notice>
      )}
      <SelectField
        label="Module"
        name="module"
        value={values.module}
        onChange={set('module')}
        error={errors.fields.module}
        className="sm:col-span-2"
      >
        <option value="">Choose a module</option>
        {modules.map((m) => (
          <option key={m.id} value={m.name}>
            {m.name}
          </option>
        ))}
      </SelectField>
      {role === 'admin' && (
        <SelectField
          label="Tutor"
          name="tutorId"
          value={values.tutorId}
          onChange={set('tutorId')}
          error={errors.fields.tutorId}
          hint="Leave it to the category’s only tutor, or name one when it has several."
          className="sm:col-span-2"
        >
          <option value="">The category’s only tutor</option>
          {tutors.map((t) => (
            <option key={t.tutorId} value={t.tutorId}>
              {t.name}
            </option>
          ))}
        </SelectField>
      )}
      <FormField
        label="Date"
        name="date"
        type="date"
        value={values.date}
        onChange={set('date')}
        error={errors.fields.date}
      />
      <FormField
        label="Start (SAST, HH:MM)"
        name="start"
        inputMode="numeric"
        autoComplete="off"
        maxLength={5}
        value={values.start}
        onChange={set('start')}
        onBlur={(e) => setValues((v) => ({ ...v, start: normalizeTime(e.target.value) }))}
        error={errors.fields.start}
      />
      <FormField
        label="Hours"
        name="hours"
        type="number"
        min={bookingLimits.hoursMin}
        max={bookingLimits.hoursMax}
        value={values.hours}
        onChange={set('hours')}
        error={errors.fields.hours}
      />
      <FormField
        label="Seats"
        name="seats"
        type="number"
        min={groupLimits.seatsMin}
        max={groupLimits.seatsMax}
        value={values.seats}
        onChange={set('seats')}
        error={errors.fields.seats}
      />
      <FormField
        label="Price per student (R)"
        name="price"
        inputMode="decimal"
        value={values.price}
        onChange={set('price')}
        error={errors.fields.priceCents}
        className="sm:col-span-2"
      />
      <div className="flex flex-wrap gap-3 sm:col-span-2">
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? 'Opening…' : 'Open the group session'}
        </button>
        <button type="button" className="btn-secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
