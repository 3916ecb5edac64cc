import { GraduationCap, LayoutDashboard, LogIn, MessagesSquare } from 'lucide-react';
import { Link } from 'react-router-dom';
import { brand } from '../../../common/brand.ts';
import { dashboardPathByRole } from '../../../common/roles.ts';
import { PageMeta } from '../../components/page-meta.tsx';
import { useSession } from '../../lib/session.tsx';
import { ContactSection, Faq, HomeTestimonials, HowItWorks, Services, WhyChoose } from './home-sections.tsx';
import { PromoCard } from './promo-card.tsx';
import { SignUpButton } from './sign-up-button.tsx';
import { bodyText, eyebrow, pageTitle } from './ui.tsx';

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
        <div className="container-page grid grid-cols-1 gap-10 pt-10 pb-4 sm:py-16 lg:grid-cols-[1.15fr_1fr] lg:items-center">
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

      <WhyChoose />
      <HowItWorks />
      <HomeTestimonials />
      <Services />
      <Faq />
      <ContactSection />
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
