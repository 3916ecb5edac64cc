import { useState } from 'react';
import { Link } from 'react-router-dom';
import { bookingMessages } from '../../../common/bookings.ts';
import { FormField } from '../../components/form-field.tsx';
import type { ChosenModule } from './chosen-module.ts';

const muted = 'text-slate-700 dark:text-slate-300';

/** No Book Now and nothing stored: choose on Courses, or name a subject (a custom one is welcome). */
export function ChooseModule({ onChoose }: { onChoose: (module: ChosenModule) => void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  return (
    <section aria-labelledby="choose-title" className="card mt-6 max-w-2xl">
      <h2 id="choose-title" className="text-xl font-semibold">
        No module chosen yet
      </h2>
      <p className={`mt-1 ${muted}`}>
        Choose one on{' '}
        <Link to="/offers" className="link">
          Courses
        </Link>{' '}
        with Book Now, or name the subject you need help with.
      </p>
      <form
        noValidate
        className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-start"
        onSubmit={(event) => {
          event.preventDefault();
          if (!name.trim()) return setError(bookingMessages.moduleRequired);
          onChoose({ name: name.trim() });
        }}
      >
        <FormField
          label="Subject"
          name="subject"
          className="grow"
          maxLength={200}
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={error}
        />
        <button type="submit" className="btn-primary sm:mt-7">
          Continue
        </button>
      </form>
    </section>
  );
}
