import { ArrowRight, CalendarDays, Clock, MessageCircle, Wallet } from 'lucide-react';
import { brand } from '../../../common/brand.ts';
import { whatsAppLink } from '../../components/contact-links.tsx';
import { promo } from './content.ts';

/** Spec §1 promo: live COMP102 session. */
export function PromoCard() {
  return (
    <section
      aria-labelledby="promo-title"
      className="rounded-2xl bg-brand-800 p-5 text-white shadow-lg sm:p-8 dark:bg-brand-900"
    >
      <p className="inline-flex items-center gap-2 rounded-full bg-white/15 px-3 py-1 text-sm font-medium">
        <span aria-hidden className="size-2 rounded-full bg-brand-300" />
        Live session
      </p>
      <h2 id="promo-title" className="mt-4 text-xl font-bold sm:text-2xl">
        {promo.title}
      </h2>
      <dl className="mt-4 grid gap-3 text-brand-50">
        <div className="flex items-center gap-3">
          <dt>
            <CalendarDays aria-hidden size={20} />
            <span className="sr-only">Date</span>
          </dt>
          <dd className="text-white">{promo.day}</dd>
        </div>
        <div className="flex items-center gap-3">
          <dt>
            <Clock aria-hidden size={20} />
            <span className="sr-only">Time</span>
          </dt>
          <dd className="text-white">{promo.time}</dd>
        </div>
        <div className="flex items-center gap-3">
          <dt>
            <Wallet aria-hidden size={20} />
            <span className="sr-only">Session fee</span>
          </dt>
          <dd>
            Session fee <span className="text-white">{promo.fee}</span>
          </dd>
        </div>
      </dl>
      <ul className="mt-5 space-y-2 border-t border-white/20 pt-5">
        {promo.agenda.map((item) => (
          <li key={item} className="flex gap-2">
            <ArrowRight aria-hidden size={20} className="mt-0.5 shrink-0 text-brand-200" />
            {item}
          </li>
        ))}
      </ul>
      <a
        href={whatsAppLink(`Hi ${brand.name}, I would like to reserve a place in the ${promo.title} on ${promo.day}.`)}
        target="_blank"
        rel="noopener noreferrer"
        className="btn mt-6 w-full bg-white text-brand-900 hover:bg-brand-50"
      >
        <MessageCircle aria-hidden size={20} className="shrink-0" />
        Reserve on WhatsApp
      </a>
    </section>
  );
}
