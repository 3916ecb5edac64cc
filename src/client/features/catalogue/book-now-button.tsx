import { useNavigate } from 'react-router-dom';
import type { Module } from '../../../common/catalogue.ts';

/** What the booking page receives as navigation state (spec §4 Booking form). */
export interface BookingModuleState {
  module: Pick<Module, 'id' | 'slug' | 'name'>;
}

/** Spec §2: Book Now goes to /booking with the module passed as navigation state. */
export function BookNowButton({
  module,
  describedBy,
  className = 'btn-primary',
}: {
  module: Module;
  describedBy?: string;
  className?: string;
}) {
  const navigate = useNavigate();
  const state: BookingModuleState = { module: { id: module.id, slug: module.slug, name: module.name } };
  return (
    <button
      type="button"
      className={className}
      aria-describedby={describedBy}
      onClick={() => navigate('/booking', { state })}
    >
      Book Now
    </button>
  );
}
