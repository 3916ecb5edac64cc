export function AboutPage() { return <section className="container-page py-10"><h1>AboutPage</h1></section>; }
