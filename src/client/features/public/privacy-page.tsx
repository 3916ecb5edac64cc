export function PrivacyPage() { return <section className="container-page py-10"><h1>PrivacyPage</h1></section>; }
