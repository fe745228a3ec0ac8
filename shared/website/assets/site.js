// Small enhancements and the page-view beacon; every page works without this file.
(function () {
  'use strict';
  var d = document;
  d.documentElement.classList.add('js');
  // Mobile menu: a disclosure button (hidden without JS, when the menu is simply shown).
  var toggle = d.querySelector('.menu-toggle');
  var nav = d.getElementById('site-nav');
  if (toggle && nav) {
    var wide = window.matchMedia('(min-width: 60rem)');
    var set = function (open) {
      toggle.setAttribute('aria-expanded', String(open));
      nav.classList.toggle('closed', !open);
    };
    toggle.hidden = false;
    set(false);
    toggle.addEventListener('click', function () { set(toggle.getAttribute('aria-expanded') !== 'true'); });
    d.addEventListener('keydown', function (e) {
      if (e.key === 'Escape' && !wide.matches && toggle.getAttribute('aria-expanded') === 'true') { set(false); toggle.focus(); }
    });
  }
  // The rest runs in tasks of its own after this one, so no single task holds up the page (a
  // phone's main thread stays free for input between them).
  var later = function (f) { setTimeout(f, 0); };
  later(function () {
    // Sliders: previous/next buttons over the scroll-snapped list (swipe and keyboard scroll work without them).
    d.querySelectorAll('[data-slider]').forEach(function (slider) {
      var list = slider.querySelector('.slides');
      if (!list || list.children.length < 2) return;
      // The later slides' images are fetched once the slider is used (base.css).
      var live = function () { slider.classList.add('live'); };
      ['scroll', 'pointerdown', 'touchstart', 'focusin', 'keydown'].forEach(function (ev) {
        (ev === 'scroll' ? list : slider).addEventListener(ev, live, { once: true, passive: true });
      });
      var controls = d.createElement('div');
      controls.className = 'slider-controls';
      // Right to left, the next slide is on the left: the arrows and the scroll turn round. The
      // direction is read from the markup's dir, not the computed style, which would make the browser
      // work out the whole page's style before its first paint is done with.
      var rtl = (list.closest('[dir]') || d.documentElement).getAttribute('dir') === 'rtl' ? -1 : 1;
      [[slider.getAttribute('data-prev') || 'Previous slide', -1], [slider.getAttribute('data-next') || 'Next slide', 1]].forEach(function (b) {
        var btn = d.createElement('button');
        btn.type = 'button';
        btn.textContent = b[1] * rtl < 0 ? '‹' : '›';
        btn.setAttribute('aria-label', b[0]);
        btn.addEventListener('click', function () { list.scrollBy({ left: b[1] * rtl * list.clientWidth, behavior: 'smooth' }); });
        controls.appendChild(btn);
      });
      slider.appendChild(controls);
    });
  });
  later(function () {
    // Embeds (a video, a map): the third party's page loads when the visitor asks for it, in place
    // of the link (which, without this file, opens it). Nothing is fetched from it before.
    d.querySelectorAll('a.embed-load').forEach(function (link) {
      link.addEventListener('click', function (e) {
        e.preventDefault();
        var frame = d.createElement('iframe');
        var src = link.getAttribute('href');
        // A player starts at once: the click that asked for it was the visitor's "play".
        if (/^https:\/\/(www\.youtube-nocookie\.com|player\.vimeo\.com)\//.test(src)) src += (src.indexOf('?') < 0 ? '?' : '&') + 'autoplay=1';
        frame.src = src;
        frame.title = link.getAttribute('data-embed-title') || '';
        frame.allowFullscreen = true;
        frame.setAttribute('allow', 'autoplay; fullscreen; picture-in-picture');
        frame.referrerPolicy = 'strict-origin-when-cross-origin';
        link.parentNode.replaceChild(frame, link);
        frame.focus();
      });
    });
  });
  later(function () {
    // Images of the sections after the first (data-src): their copies once they come within 200
    // pixels of the screen, or before printing; without IntersectionObserver, at once.
    var held = d.querySelectorAll('img[data-src]');
    var show = function (img) {
      if (!img.hasAttribute('data-src')) return;
      if (img.hasAttribute('data-sizes')) img.sizes = img.getAttribute('data-sizes');
      if (img.hasAttribute('data-srcset')) img.srcset = img.getAttribute('data-srcset');
      img.src = img.getAttribute('data-src');
      img.removeAttribute('data-src');
    };
    if (held.length) {
      var io = window.IntersectionObserver && new IntersectionObserver(function (es) {
        es.forEach(function (e) { if (e.isIntersecting) { io.unobserve(e.target); show(e.target); } });
      }, { rootMargin: '200px' });
      held.forEach(function (img) { if (io) io.observe(img); else show(img); });
      window.addEventListener('beforeprint', function () { held.forEach(show); });
    }
  });
  later(function () {
    // Page view: one beacon to the site itself with the page's path, time zone and token and the
    // referring site's host (never its whole address); none when the browser asks not to be tracked (Do Not
    // Track, Global Privacy Control), none for a page prerendered but never shown. No cookie.
    var counted = d.querySelector('script[data-v]');
    var n = navigator;
    if (counted && n.sendBeacon && n.doNotTrack !== '1' && n.doNotTrack !== 'yes' && !n.globalPrivacyControl) {
      var sent = false;
      var send = function () {
        if (sent) return;
        sent = true;
        var from = '';
        try { from = new URL(d.referrer).hostname; } catch (e) { from = ''; }
        if (from === location.hostname) from = '';
        var a = function (k) { return counted.getAttribute('data-' + k); };
        n.sendBeacon('/_v', JSON.stringify({ p: a('p'), z: a('z'), v: a('v'), r: from }));
      };
      // Sent a second after the page has loaded, when the browser is idle, so that it never competes
      // with what the first screen fetches on a slow phone; at once if the visitor leaves before.
      var start = function () {
        var idle = function () {
          if (window.requestIdleCallback) window.requestIdleCallback(send, { timeout: 2000 });
          else send();
        };
        var soon = function () { setTimeout(idle, 1000); };
        if (d.readyState === 'complete') soon();
        else window.addEventListener('load', soon, { once: true });
        // Leaving: the page hidden (a tab or app switched, a phone locked) or unloaded.
        d.addEventListener('visibilitychange', function () { if (d.visibilityState === 'hidden') send(); });
        window.addEventListener('pagehide', send);
      };
      if (d.prerendering) d.addEventListener('prerenderingchange', start, { once: true });
      else start();
    }
  });
  later(function () {
    // Popup: shown once per visitor (remembered in localStorage), closed with its button or Escape.
    var popup = d.querySelector('dialog[data-popup]');
    if (popup && typeof popup.showModal === 'function') {
      var key = 'popup-seen-' + popup.getAttribute('data-popup');
      var seen = false;
      try { seen = localStorage.getItem(key) === '1'; } catch (e) { seen = false; }
      if (!seen) {
        popup.showModal();
        popup.addEventListener('close', function () { try { localStorage.setItem(key, '1'); } catch (e) { /* private mode */ } });
      }
    }
  });
})();
