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

/** The `<script type="application/json">` element that names the app's entry module and its preloads. */
export const APP_MODULES_ELEMENT_ID = 'app-modules';

/** What the app-modules element holds (build-client.mjs writes it). */
export type AppModules = { entry: string; preload: string[] };

/**
 * After the body boot script: starts the app's JavaScript (the modules named in the
 * app-modules element). On a route without prerendered markup (login, admin) at once, with
 * #root hidden until the app renders. On a prerendered route only once the browser has
 * reported the page's largest paint, so that no script is fetched, parsed or run before it;
 * where that is not reported (a page opened hidden, a browser without the entry type) after
 * the first frame, and at the latest one second after the load event or at a visitor's first
 * press or touch.
 */
export const appStartScript = `(function(){var d=document,e=d.getElementById('${APP_MODULES_ELEMENT_ID}'),root=d.getElementById('root');if(!e||!root)return;var m=JSON.parse(e.textContent),started=false,po;function start(){if(started)return;started=true;if(po)po.disconnect();m.preload.forEach(function(h){var l=d.createElement('link');l.rel='modulepreload';l.crossOrigin='anonymous';l.href=h;d.head.append(l);});import(m.entry);}function soon(){setTimeout(start);}${readRoute}if(r!=='/'&&!root.hasAttribute('data-route')){root.hidden=true;start();return;}['pointerdown','touchstart','keydown'].forEach(function(t){addEventListener(t,start,{capture:true,passive:true});});var types=(window.PerformanceObserver&&PerformanceObserver.supportedEntryTypes)||[];if(d.visibilityState==='visible'&&types.indexOf('largest-contentful-paint')>=0){po=new PerformanceObserver(soon);po.observe({type:'largest-contentful-paint',buffered:true});addEventListener('load',function(){setTimeout(start,1000);});d.addEventListener('visibilitychange',function(){requestAnimationFrame(soon);});}else requestAnimationFrame(soon);})();`;
