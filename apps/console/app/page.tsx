/** Placeholder: the finance console (balances, usage, documents, reconciliation) is built on the same API. */
export default function Home() {
  return (
    <main>
      <h1>CFDI console</h1>
      <p>Balances, usage and documents for finance staff will appear here.</p>
    </main>
  );
}
