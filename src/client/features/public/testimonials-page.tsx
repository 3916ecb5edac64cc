export function TestimonialsPage() { return <section className="container-page py-10"><h1>TestimonialsPage</h1></section>; }
