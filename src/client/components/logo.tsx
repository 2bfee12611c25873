/** The brand mark: a lotus over a sun, drawn inline so it costs no request. */
export function LogoMark({ className = 'h-9 w-9' }: { className?: string }) {
  return (
    <svg viewBox="0 0 40 40" aria-hidden="true" focusable="false" className={className}>
      <circle cx="20" cy="20" r="20" fill="#345a42" />
      <circle cx="20" cy="15" r="5" fill="#f1e7d6" />
      <path d="M20 31c-4-3-6-7-6-11 3 1 5 4 6 7 1-3 3-6 6-7 0 4-2 8-6 11Z" fill="#c7d8c0" />
      <path
        d="M20 31c-5 0-10-2-12-6 4-1 8 1 12 6Zm0 0c5 0 10-2 12-6-4-1-8 1-12 6Z"
        fill="#e3ecdf"
      />
    </svg>
  );
}
