import {
  BookOpenCheck,
  CalendarCheck,
  CalendarX,
  Handshake,
  ShieldAlert,
  UserX,
  Wallet,
  type LucideIcon,
} from 'lucide-react';
import { Link } from 'react-router-dom';
import { brand, mailtoUrl } from '../../../common/brand.ts';
import { PageMeta } from '../../components/page-meta.tsx';
import { ruleGroups, secondSemesterModules, type RuleGroup } from './about-content.ts';
import { SignUpButton } from './sign-up-button.tsx';
import { IconBadge, bodyText, cardTitle, eyebrow, pageTitle, sectionTitle } from './ui.tsx';

const ruleIcons: Record<RuleGroup['icon'], LucideIcon> = {
  booking: CalendarCheck,
  cancel: CalendarX,
  noshow: UserX,
  payment: Wallet,
  conduct: ShieldAlert,
  prepare: BookOpenCheck,
};

const initials = brand.founder
  .split(/\s+/)
  .map((part) => part[0])
  .join('')
  .slice(0, 2);

export function AboutPage() {
  return (
    <>
      <PageMeta
        title="About"
        description={`How ${brand.founder} started ${brand.name}, the second-semester modules we cover, our prices (R80 to R100 per hour) and our booking rules.`}
      />

      <div className="bg-linear-to-b from-brand-50 to-slate-50 dark:from-slate-900 dark:to-slate-950">
        <div className="container-page pt-12 pb-8 sm:pt-16 sm:pb-10">
          <p className={eyebrow}>About us</p>
          <h1 className={`mt-3 max-w-3xl ${pageTitle}`}>Tutoring started by a student, for students</h1>
          <p className={`mt-4 max-w-2xl sm:text-lg ${bodyText}`}>
            {brand.name} offers one-on-one tutoring in programming, IT, statistics and maths, with group sessions by
            arrangement.
          </p>
        </div>
      </div>

      <section aria-labelledby="story-title" className="container-page py-12">
        <div className="grid grid-cols-1 gap-8 lg:grid-cols-[1fr_18rem] lg:items-start">
          <div>
            <h2 id="story-title" className={sectionTitle}>
              Our story
            </h2>
            <div className={`mt-4 max-w-3xl space-y-4 ${bodyText}`}>
              <p>
                {brand.founder} is a student who started {brand.name} by tutoring fellow students. It began with
                late-night study sessions in res before COMP102 practical tests, explaining loops, arrays and classes on
                a whiteboard until they clicked.
              </p>
              <p>
                Word spread from one class to the next. Soon classmates were asking for help with calculus, statistics
                and databases too, and high-school learners wanted help with FET Mathematics. To keep up,{' '}
                {brand.founder.split(' ')[0]} brought in tutors for each subject and built this website so that booking
                a session is quick and simple.
              </p>
              <p>
                The idea has stayed the same: tutors who recently sat the same modules, patient explanations, and prices
                a student can afford.
              </p>
            </div>
          </div>
          <figure className="card flex items-center gap-4 lg:flex-col lg:text-center">
            <span
              aria-hidden
              className="flex size-16 shrink-0 items-center justify-center rounded-full bg-brand-700 text-2xl font-bold text-white"
            >
              {initials}
            </span>
            <figcaption className="min-w-0 [overflow-wrap:anywhere]">
              <span className={`block ${cardTitle}`}>{brand.founder}</span>
              <span className="text-sm text-slate-700 dark:text-slate-300">Founder of {brand.name}</span>
            </figcaption>
          </figure>
        </div>
      </section>

      <section
        aria-labelledby="modules-title"
        className="border-y border-slate-200 bg-white py-12 dark:border-slate-800 dark:bg-slate-900"
      >
        <div className="container-page">
          <h2 id="modules-title" className={sectionTitle}>
            Modules covered in the second semester
          </h2>
          <p className={`mt-2 max-w-2xl ${bodyText}`}>
            We tutor these modules this semester. Not on the list? Ask us: we can often help with other modules and with
            FET Mathematics and Physical Science.
          </p>
          <ul className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
            {secondSemesterModules.map((module) => (
              <li
                key={module}
                className="flex min-h-12 items-center justify-center rounded-xl border border-brand-200 bg-brand-50 px-3 font-medium text-brand-900 dark:border-brand-800 dark:bg-brand-900/40 dark:text-brand-100"
              >
                {module}
              </li>
            ))}
          </ul>
          <p className="mt-8 flex items-start gap-3 sm:text-lg">
            <Wallet aria-hidden size={22} className="mt-1 shrink-0 text-brand-700 dark:text-brand-300" />
            <span className={bodyText}>
              Sessions cost <strong className="text-slate-900 dark:text-white">R80 to R100 per hour</strong>, depending
              on the module.
            </span>
          </p>
        </div>
      </section>

      <section aria-labelledby="rules-title" className="container-page py-12">
        <h2 id="rules-title" className={sectionTitle}>
          Our rules
        </h2>
        <p className={`mt-2 max-w-2xl ${bodyText}`}>
          Please read these before you book. They keep sessions fair for students and tutors.
        </p>
        <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {ruleGroups.map((group) => {
            const Icon = ruleIcons[group.icon];
            return (
              <li key={group.title} className="card">
                <h3 className={`flex items-center gap-3 ${cardTitle}`}>
                  <IconBadge icon={Icon} />
                  {group.title}
                </h3>
                <ul
                  className={`mt-4 list-disc space-y-2 pl-5 marker:text-brand-700 dark:marker:text-brand-300 ${bodyText}`}
                >
                  {group.rules.map((rule) => (
                    <li key={rule}>{rule}</li>
                  ))}
                </ul>
              </li>
            );
          })}
        </ul>
      </section>

      <section aria-labelledby="start-title" className="container-page">
        <div className="card flex flex-col gap-6 p-6 sm:p-8 md:flex-row md:items-center md:justify-between">
          <div>
            <h2 id="start-title" className="text-xl font-bold sm:text-2xl">
              Ready to book a session?
            </h2>
            <p className={`mt-1 ${bodyText}`}>
              Create a free account, or e-mail us at{' '}
              <a href={mailtoUrl} className="link">
                {brand.email}
              </a>
              .
            </p>
          </div>
          <div className="flex flex-col gap-3 sm:flex-row">
            <SignUpButton />
            <Link to="/testimonials" className="btn-secondary">
              <Handshake aria-hidden size={20} />
              Testimonials
            </Link>
          </div>
        </div>
      </section>
    </>
  );
}
