import {
  ArrowRight,
  BadgeCheck,
  Banknote,
  CalendarClock,
  CalendarDays,
  ChartColumn,
  ChevronDown,
  Clock,
  CodeXml,
  GraduationCap,
  LaptopMinimal,
  LayoutDashboard,
  LogIn,
  MessageCircle,
  MessagesSquare,
  Sigma,
  Users,
  Wallet,
  type LucideIcon,
} from 'lucide-react';
import { Link } from 'react-router-dom';
import { brand } from '../../../common/brand.ts';
import { dashboardPathByRole } from '../../../common/roles.ts';
import { ContactLinks, whatsAppLink } from '../../components/contact-links.tsx';
import { PageMeta } from '../../components/page-meta.tsx';
import { useSession } from '../../lib/session.tsx';
import { testimonialSeed } from '../../../common/testimonials-seed.ts';
import { faqs, homeClaims, howItWorks, promo, services, type Service } from './content.ts';
import { SignUpButton } from './sign-up-button.tsx';
import { TestimonialCard } from './testimonial-card.tsx';
import { IconBadge, bodyText, cardTitle, eyebrow, pageTitle, sectionIntro, sectionTitle } from './ui.tsx';

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

export function HomePage() {
  return (
    <>
      <PageMeta
        title={brand.name}
        description={`${brand.tagline}. Rates as low as R80/hour, group sessions, payment by EFT. Book a tutor for COMP, MATHS, STATS and FET modules.`}
      />

      <section
        aria-labelledby="hero-title"
        className="bg-linear-to-b from-brand-50 to-slate-50 dark:from-slate-900 dark:to-slate-950"
      >
        <div className="container-page grid gap-10 pt-10 pb-4 sm:py-16 lg:grid-cols-[1.15fr_1fr] lg:items-center">
          <div>
            <p className={eyebrow}>Tutoring by students, for students</p>
            {/* Smaller and tighter on phones: three lines at 360 px, even in a wide font such as DejaVu Sans. */}
            <h1
              id="hero-title"
              className={`mt-3 ${pageTitle} max-sm:text-[1.625rem] max-sm:tracking-tighter lg:text-[2.75rem]`}
            >
              Understand your modules. Walk into your exams with confidence.
            </h1>
            <p className={`mt-4 max-w-xl sm:text-lg ${bodyText}`}>
              {brand.name} offers one-on-one tutoring in programming, IT, statistics and maths for university and FET
              students, with group sessions by arrangement. Rates as low as R80/hour.
            </p>
            <HeroActions />
          </div>

          <PromoCard />
        </div>
      </section>

      <section aria-labelledby="why-title" className="container-page py-14">
        <h2 id="why-title" className={sectionTitle}>
          Why choose {brand.name}?
        </h2>
        <p className={sectionIntro}>Tutoring that fits a student budget and a student timetable.</p>
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
      </section>

      <section
        aria-labelledby="how-title"
        className="border-y border-slate-200 bg-white py-14 dark:border-slate-800 dark:bg-slate-900"
      >
        <div className="container-page">
          <h2 id="how-title" className={sectionTitle}>
            How it works
          </h2>
          <p className={sectionIntro}>From sign-up to your first session in four steps.</p>
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
        </div>
      </section>

      <section aria-labelledby="testimonials-title" className="container-page py-14">
        <h2 id="testimonials-title" className={sectionTitle}>
          What students say
        </h2>
        <p className={sectionIntro}>Students from first-year programming to Grade 12 maths.</p>
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
      </section>

      <section
        aria-labelledby="services-title"
        className="border-y border-slate-200 bg-white py-14 dark:border-slate-800 dark:bg-slate-900"
      >
        <div className="container-page">
          <h2 id="services-title" className={sectionTitle}>
            Services
          </h2>
          <p className={sectionIntro}>
            Every subject is available as one-on-one tutoring or as a group session by arrangement.
          </p>
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
        </div>
      </section>

      <section aria-labelledby="faq-title" className="container-page py-14">
        <h2 id="faq-title" className={sectionTitle}>
          Frequently asked questions
        </h2>
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
      </section>

      <section aria-labelledby="contact-title" className="container-page pb-4">
        <div className="rounded-2xl bg-brand-800 px-5 py-10 text-white sm:px-10 dark:bg-brand-900">
          <h2 id="contact-title" className="text-2xl font-bold tracking-tight sm:text-3xl">
            Contact us
          </h2>
          <p className="mt-2 max-w-2xl text-brand-50">
            Questions about a module, group sessions or the monthly option? Send us a message and we will get back to
            you.
          </p>
          <ContactLinks tone="onBrand" className="mt-6" />
        </div>
      </section>
    </>
  );
}

/**
 * Spec §2: Sign Up and Login for visitors. A signed-in user gets their next steps instead; while the session
 * is still being read, neither row shows (the space is kept), so no one sees the other variant flash.
 */
function HeroActions() {
  const { session } = useSession();
  if (session.status === 'signed-in') {
    return (
      <div className="mt-8">
        <p className={bodyText}>Welcome back, {session.me.name}. Where to next?</p>
        <ul className="mt-3 flex flex-col gap-3 sm:flex-row sm:flex-wrap">
          <li>
            <Link to="/offers" className="btn w-full bg-brand-700 text-white hover:bg-brand-800 sm:w-auto">
              <GraduationCap aria-hidden size={20} className="shrink-0" />
              Courses
            </Link>
          </li>
          <li>
            <Link to={dashboardPathByRole[session.me.role]} className="btn-secondary w-full sm:w-auto">
              <LayoutDashboard aria-hidden size={20} className="shrink-0" />
              Dashboard
            </Link>
          </li>
          <li>
            <Link to="/qa" className="btn-secondary w-full sm:w-auto">
              <MessagesSquare aria-hidden size={20} className="shrink-0" />
              Community
            </Link>
          </li>
        </ul>
      </div>
    );
  }
  // The visitor's row (the page as rendered at build time): stacked on phones, one line from `sm` up.
  if (session.status === 'loading') return <div className="mt-8 min-h-25 sm:min-h-11" />;
  return (
    <div className="mt-8 flex flex-col gap-3 sm:flex-row">
      <SignUpButton className="btn bg-brand-700 px-6 text-white hover:bg-brand-800" />
      <Link to="/login" className="btn-secondary px-6">
        <LogIn aria-hidden size={20} />
        Login
      </Link>
    </div>
  );
}

/** Spec §1 promo: live COMP102 session. */
function PromoCard() {
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
