import { Link, useLocation } from 'react-router-dom';

type Section = { heading: string; paragraphs: string[] };

const PAGES: Record<string, { title: string; sections: Section[] }> = {
  '/privacy': {
    title: 'Privacy Policy',
    sections: [
      {
        heading: 'What we collect',
        paragraphs: [
          'We collect the information needed to run the service: your name and e-mail address for authentication, the files and photos you store, your tasks and calendar entries, and usage analytics that help us keep the service reliable.',
        ],
      },
      {
        heading: 'How we use and share it',
        paragraphs: [
          'Your data is used only to provide the service. It is not sold, and it is not shared with anyone without your consent, except where the law requires it.',
        ],
      },
      {
        heading: 'Your rights',
        paragraphs: [
          'You can download a copy of all your data, and delete your account with everything in it, yourself: Settings › Your data. Comments you wrote on other people’s galleries stay, signed “Deleted user”.',
          'You may also ask for access to your data, or for it to be changed or deleted, by contacting support.',
        ],
      },
    ],
  },
  '/cookies': {
    title: 'Cookie Policy',
    sections: [
      {
        heading: 'Cookies we use',
        paragraphs: [
          'We use a session cookie to keep you signed in and a security cookie that protects sign-in forms. We do not use advertising cookies.',
          'Blocking these cookies prevents signing in.',
        ],
      },
    ],
  },
  '/dmca': {
    title: 'DMCA Policy',
    sections: [
      {
        heading: 'Reporting infringing content',
        paragraphs: [
          'If you believe content on the service infringes your copyright, send a notice that includes: your full name and contact information; the location of the content; a statement that you believe in good faith that the use is not authorized; a statement, under penalty of perjury, that the information in your notice is accurate and that you are the owner or authorized to act for the owner; and your physical or electronic signature.',
        ],
      },
    ],
  },
  '/nda': {
    title: 'Non-Disclosure Agreement',
    sections: [
      {
        heading: 'Confidentiality',
        paragraphs: [
          'By using the platform, crew members and producers agree to keep confidential all production information they see here, including locations, photos, schedules and project details, as well as information about the platform itself.',
          'This implied confidentiality continues after your access ends.',
        ],
      },
    ],
  },
  '/terms': {
    title: 'Terms of Service',
    sections: [
      { heading: 'Acceptance', paragraphs: ['By using the service you accept these terms.'] },
      {
        heading: 'Licence',
        paragraphs: ['You receive a personal, non-commercial, non-transferable licence to use the service.'],
      },
      {
        heading: 'Availability',
        paragraphs: ['We work to keep the service available, but availability is not guaranteed.'],
      },
      { heading: 'Contact', paragraphs: ['Questions about these terms can be sent to support.'] },
    ],
  },
};

export default function LegalPage() {
  const { pathname } = useLocation();
  const page = PAGES[pathname] ?? PAGES['/terms']!;
  return (
    <div className="min-h-screen bg-white text-slate-900 dark:bg-slate-950 dark:text-slate-100">
      <div className="mx-auto max-w-3xl px-4 py-12">
        <Link to="/" className="text-sm text-indigo-600 hover:underline dark:text-indigo-400">
          ← Back to Scoutbase
        </Link>
        <h1 className="mt-6 text-3xl font-bold">{page.title}</h1>
        {page.sections.map((section) => (
          <section key={section.heading} className="mt-8">
            <h2 className="text-xl font-semibold">{section.heading}</h2>
            {section.paragraphs.map((text) => (
              <p key={text} className="mt-3 leading-relaxed text-slate-700 dark:text-slate-300">
                {text}
              </p>
            ))}
          </section>
        ))}
      </div>
    </div>
  );
}
