export function HomePage() { return <section className="container-page py-10"><h1>HomePage</h1></section>; }
