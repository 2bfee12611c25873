import bundleMockup from './bundle-mockup.svg';
import dailyPresenceJournal from './daily-presence-journal.svg';
import eveningCalmRitual from './evening-calm-ritual.svg';
import freeGuideCover from './free-guide-cover.svg';
import innerPeaceWorkbook from './inner-peace-workbook.svg';
import oracleQuoteCards from './oracle-quote-cards.svg';
import portraitAmelia from './portrait-amelia.svg';
import portraitNadia from './portrait-nadia.svg';
import portraitSofia from './portrait-sofia.svg';
import ritualTracker from './ritual-tracker.svg';
import thoughtHealingDeck from './thought-healing-deck.svg';

export type BuiltInImage = { src: string; width: number; height: number };

const part = (src: string): BuiltInImage => ({ src, width: 480, height: 360 });
const portrait = (src: string): BuiltInImage => ({ src, width: 112, height: 112 });

/** The images the site was built with, by the name the store content gives them ("builtin:…"). */
export const builtInImages: Record<string, BuiltInImage> = {
  'bundle-mockup': { src: bundleMockup, width: 560, height: 480 },
  'daily-presence-journal': part(dailyPresenceJournal),
  'evening-calm-ritual': part(eveningCalmRitual),
  'thought-healing-deck': part(thoughtHealingDeck),
  'oracle-quote-cards': part(oracleQuoteCards),
  'ritual-tracker': part(ritualTracker),
  'inner-peace-workbook': part(innerPeaceWorkbook),
  'portrait-sofia': portrait(portraitSofia),
  'portrait-amelia': portrait(portraitAmelia),
  'portrait-nadia': portrait(portraitNadia),
  'free-guide-cover': { src: freeGuideCover, width: 80, height: 100 },
};
