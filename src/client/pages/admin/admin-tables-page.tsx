export function AdminTablesPage() {
  return (
    <section aria-labelledby="admin-tables-heading" className="mt-8">
      <h2 id="admin-tables-heading" className="text-2xl font-semibold text-sage-800">
        Tables
      </h2>
    </section>
  );
}
