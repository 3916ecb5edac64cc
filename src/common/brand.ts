/**
 * Who we are and how to reach us: the one place for the brand name and contact details.
 * Both the site and the e-mails read from here.
 */
export const brand = {
  name: 'TutorBook',
  tagline: 'One-on-one tutoring in programming, IT, statistics and maths',
  founder: 'Sipho Ndlovu',
  phoneDisplay: '+27 71 234 5678',
  /** International format without "+" or spaces, as wa.me links want it. */
  phoneWhatsApp: '27712345678',
  email: 'hello@tutorbook.co.za',
  professionalProfileUrl: 'https://www.linkedin.com/in/tutorbook-founder',
  themeColor: '#0f766e',
} as const;

export const whatsAppUrl = `https://wa.me/${brand.phoneWhatsApp}`;
export const mailtoUrl = `mailto:${brand.email}`;
