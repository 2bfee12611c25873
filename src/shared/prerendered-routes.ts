import { paths } from './paths';

/**
 * The public routes whose markup is prerendered at build time into index.html: home inside
 * #root, every other one in a `<template data-route>` after it. Routes live in the hash, which
 * the browser never sends, so one HTML serves them all and two tiny inline scripts pick the
 * route's markup before the first paint (see README.md, "Prerendered routes").
 */
export const prerenderedRoutes = [
  paths.home,
  paths.thankYou,
  paths.privacyPolicy,
  paths.refundPolicy,
  paths.termsOfService,
  paths.contactUs,
] as const;

/** The attribute on <html> that hides #root until the route's markup (or the app) is in it. */
export const ROUTE_PENDING_ATTRIBUTE = 'data-route-pending';

// Both scripts read the route as mount-app.ts's isHomeHash does: the hash up to ? or a second #.
const readRoute = "var r=location.hash.replace(/^#/,'').split(/[?#]/)[0];if(r==='')r='/';";

/** First in <head>: on any route but home, hide #root (styles.css) so home never flashes. */
export const headBootScript = `(function(){${readRoute}if(r!=='/')document.documentElement.setAttribute('${ROUTE_PENDING_ATTRIBUTE}','');})();`;

/**
 * Right after the templates at the end of <body>, before anything paints: moves the route's
 * prerendered markup into #root, marks which route it holds (mount-app.tsx hydrates it) and
 * shows it. Other routes (login, admin) stay hidden until the app renders them.
 */
export const bodyBootScript = `(function(){${readRoute}var t=r==='/'?null:document.querySelector('template[data-route="'+r.replace(/["\\\\]/g,'')+'"]');var root=document.getElementById('root');if(!t||!root)return;root.replaceChildren(t.content);root.setAttribute('data-route',r);document.documentElement.removeAttribute('${ROUTE_PENDING_ATTRIBUTE}');})();`;
