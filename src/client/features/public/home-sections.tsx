import {
  ArrowRight,
  BadgeCheck,
  Banknote,
  CalendarClock,
  CalendarDays,
  ChartColumn,
  ChevronDown,
  CodeXml,
  LaptopMinimal,
  Sigma,
  Users,
  Wallet,
  type LucideIcon,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { brand } from '../../../common/brand.ts';
import { testimonialSeed } from '../../../common/testimonials-seed.ts';
import { ContactLinks } from '../../components/contact-links.tsx';
import { faqs, homeClaims, howItWorks, services, type Service } from './content.ts';
import { TestimonialCard } from './testimonial-card.tsx';
import { IconBadge, cardTitle, sectionIntro, sectionTitle } from './ui.tsx';

/** The home page's sections below the hero (home-page.tsx composes them). */

/** Spec §1: each home page claim is a "why choose us" card, its title word for word. */
const whyChoose: { title: (typeof homeClaims)[number]; text: string; icon: LucideIcon }[] = [
  { title: homeClaims[0], text: 'Student-friendly prices for every module, from R80 to R100 per hour.', icon: Wallet },
  {
    title: homeClaims[1],
    text: 'Studying all month? Pay once for the month and save compared with paying per session.',
    icon: CalendarDays,
  },
  {
    title: homeClaims[2],
    text: 'Plans change. Move your session when you let us know at least 24 hours before it starts.',
    icon: CalendarClock,
  },
  {
    title: homeClaims[3],
    text: 'Prepare for a test with your classmates and share the cost of the session.',
    icon: Users,
  },
  { title: homeClaims[4], text: 'A simple bank transfer from any South African bank. No card needed.', icon: Banknote },
  {
    title: homeClaims[5],
    text: 'No sign-up fee and no subscription: you pay for the sessions you book.',
    icon: BadgeCheck,
  },
];

const serviceIcons: Record<Service['icon'], LucideIcon> = {
  code: CodeXml,
  laptop: LaptopMinimal,
  stats: ChartColumn,
  maths: Sigma,
};

/**
 * One section of the home page: its heading (the section's name for screen readers), an optional line under it,
 * and what it holds; a `band` runs the full width on white between borders.
 */
function HomeSection({
  id,
  title,
  intro,
  band = false,
  children,
}: {
  id: string;
  title: string;
  intro?: string;
  band?: boolean;
  children: ReactNode;
}) {
  const heading = (
    <>
      <h2 id={`${id}-title`} className={sectionTitle}>
        {title}
      </h2>
      {intro && <p className={sectionIntro}>{intro}</p>}
    </>
  );
  if (!band)
    return (
      <section aria-labelledby={`${id}-title`} className="container-page py-14">
        {heading}
        {children}
      </section>
    );
  return (
    <section
      aria-labelledby={`${id}-title`}
      className="border-y border-slate-200 bg-white py-14 dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="container-page">
        {heading}
        {children}
      </div>
    </section>
  );
}

/** Spec §1: the six claims, each a card. */
export function WhyChoose() {
  return (
    <HomeSection
      id="why"
      title={`Why choose ${brand.name}?`}
      intro="Tutoring that fits a student budget and a student timetable."
    >
      <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {whyChoose.map(({ title, text, icon: Icon }) => (
          <li key={title} className="card">
            <div className="flex items-center gap-3 sm:flex-col sm:items-start sm:gap-4">
              <IconBadge icon={Icon} />
              <h3 className={cardTitle}>{title}</h3>
            </div>
            <p className="mt-2 text-slate-700 sm:mt-1 dark:text-slate-300">{text}</p>
          </li>
        ))}
      </ul>
    </HomeSection>
  );
}

/** From sign-up to a first session, in four steps. */
export function HowItWorks() {
  return (
    <HomeSection id="how" title="How it works" intro="From sign-up to your first session in four steps." band>
      <ol className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
        {howItWorks.map((step, index) => (
          <li key={step.title} className="flex gap-4 lg:flex-col">
            <span
              aria-hidden
              className="flex size-11 shrink-0 items-center justify-center rounded-full bg-brand-700 text-lg font-bold text-white"
            >
              {index + 1}
            </span>
            <div>
              <h3 className={cardTitle}>
                <span className="sr-only">Step {index + 1}: </span>
                {step.title}
              </h3>
              <p className="mt-1 text-slate-700 dark:text-slate-300">{step.text}</p>
            </div>
          </li>
        ))}
      </ol>
    </HomeSection>
  );
}

/** Three students' words, and the way to the rest. */
export function HomeTestimonials() {
  return (
    <HomeSection
      id="testimonials"
      title="What students say"
      intro="Students from first-year programming to Grade 12 maths."
    >
      <ul className="mt-8 grid gap-4 md:grid-cols-3">
        {/* The build's first three: the home page stays free of the offline engine (docs/decisions/0043). */}
        {testimonialSeed.slice(0, 3).map((t) => (
          <li key={t.name}>
            <TestimonialCard testimonial={t} />
          </li>
        ))}
      </ul>
      <p className="mt-6">
        <Link to="/testimonials" className="link inline-flex min-h-11 items-center gap-1">
          Read all testimonials
          <ArrowRight aria-hidden size={18} />
        </Link>
      </p>
    </HomeSection>
  );
}

/** The four subjects, each one-on-one or as a group. */
export function Services() {
  return (
    <HomeSection
      id="services"
      title="Services"
      intro="Every subject is available as one-on-one tutoring or as a group session by arrangement."
      band
    >
      <ul className="mt-8 grid gap-4 sm:grid-cols-2">
        {services.map((service) => {
          const Icon = serviceIcons[service.icon];
          return (
            <li key={service.title} className="card dark:bg-slate-950">
              <h3 className={`flex items-center gap-3 ${cardTitle}`}>
                <IconBadge icon={Icon} />
                {service.title}
              </h3>
              <p className="mt-3 text-slate-700 dark:text-slate-300">{service.text}</p>
              <p className="mt-3 flex flex-wrap gap-2 text-sm">
                <span className="rounded-full bg-slate-100 px-3 py-1 text-slate-800 dark:bg-slate-800 dark:text-slate-200">
                  One-on-one
                </span>
                <span className="rounded-full bg-slate-100 px-3 py-1 text-slate-800 dark:bg-slate-800 dark:text-slate-200">
                  Group sessions
                </span>
              </p>
            </li>
          );
        })}
      </ul>
    </HomeSection>
  );
}

/** The questions students ask first, each opening in place. */
export function Faq() {
  return (
    <HomeSection id="faq" title="Frequently asked questions">
      <div className="mt-8 divide-y divide-slate-200 overflow-hidden rounded-2xl border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900">
        {faqs.map((faq) => (
          <details key={faq.question} className="group">
            <summary className="flex min-h-14 cursor-pointer list-none items-center justify-between gap-4 px-5 py-3 font-medium text-slate-900 hover:bg-slate-50 dark:text-slate-100 dark:hover:bg-slate-800 [&::-webkit-details-marker]:hidden">
              {faq.question}
              <ChevronDown
                aria-hidden
                size={20}
                className="shrink-0 text-slate-600 transition-transform group-open:rotate-180 dark:text-slate-400"
              />
            </summary>
            <p className="px-5 pb-5 text-slate-700 dark:text-slate-300">{faq.answer}</p>
          </details>
        ))}
      </div>
    </HomeSection>
  );
}

/** How to reach us, on the brand colour. */
export function ContactSection() {
  return (
    <section aria-labelledby="contact-title" className="container-page pb-4">
      <div className="rounded-2xl bg-brand-800 px-5 py-10 text-white sm:px-10 dark:bg-brand-900">
        <h2 id="contact-title" className="text-2xl font-bold tracking-tight sm:text-3xl">
          Contact us
        </h2>
        <p className="mt-2 max-w-2xl text-brand-50">
          Questions about a module, group sessions or the monthly option? Send us a message and we will get back to you.
        </p>
        <ContactLinks tone="onBrand" className="mt-6" />
      </div>
    </section>
  );
}
