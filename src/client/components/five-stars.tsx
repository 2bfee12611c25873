import { Star } from 'lucide-react';

export function FiveStars() {
  return (
    <p className="flex gap-0.5 text-[#a8641f]" role="img" aria-label="Rated 5 out of 5 stars">
      {[1, 2, 3, 4, 5].map((n) => (
        <Star key={n} aria-hidden="true" className="h-4 w-4 fill-current" />
      ))}
    </p>
  );
}
