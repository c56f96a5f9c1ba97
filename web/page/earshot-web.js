/*
 * The page side of an Earshot game in the browser (docs/web.md). Loads the game's
 * program (the script tag's data-game names it), and gives the C side what
 * src/runtime/web_backend.c, audio_web.c and src/speech/speech_web.c call:
 *
 *   earAnnounce(text, assertive)  speech: the assertive region interrupts, the polite
 *                                 one adds a line; a repeat is cleared and set again
 *   earAnnounceStop()             speech stops: both regions are emptied
 *   earAudioOpen(audio, rate, channels, block) / earAudioClose()
 *                                 a ScriptProcessorNode pulling the stage
 *   earPaused(paused), earEnded(failed), earFrame(steps)
 *   earLanguage(code)             the game's language: the page's lang and its live
 *                                 regions' (the screen reader's voice follows it)
 *
 * window.earshotWeb is what the tests read: every announcement in order, the audio
 * callback's count and levels, the pause state and the runner's fixed steps, and the
 * program's console lines (printed: what it wrote to stdout; warned: to stderr).
 */
"use strict";
(function () {
  var script = document.currentScript;
  var game = script.getAttribute("data-game");
  // The program's arguments: the page's own (data-args: a Lua game's name), or the one
  // the address names (?game=NAME: earshot-lua.html?game=beacon_hunt runs that Lua game).
  var args = (script.getAttribute("data-args") || "").split(" ").filter(function (a) { return a; });
  var named = new URLSearchParams(window.location.search).get("game");
  if (named) args = [named];
  var startButton = document.getElementById("earshot-start");
  var status = document.getElementById("earshot-status");
  var area = document.getElementById("earshot-game");
  var assertive = document.getElementById("earshot-assertive");
  var polite = document.getElementById("earshot-polite");

  var web = (window.earshotWeb = {
    ready: false, started: false, ended: false, paused: false, steps: 0, frames: 0, savedAtEnd: false,
    announcements: [], printed: [], warned: [],
    audio: { callbacks: 0, frames: 0, peak: 0, rms: 0, maxPeak: 0, maxRms: 0, sampleRate: 0 },
  });

  var assertiveTimer = null;
  function announce(text, isAssertive) {
    web.announcements.push({ text: text, assertive: isAssertive });
    if (isAssertive) {
      // Clear, then set on the next task: the screen reader hears a change even when
      // the words are the same as last time (a repeat).
      assertive.textContent = "";
      if (assertiveTimer) clearTimeout(assertiveTimer);
      assertiveTimer = setTimeout(function () {
        assertiveTimer = null;
        assertive.textContent = text;
      }, 50);
    } else {
      var line = document.createElement("p");
      line.textContent = text;
      polite.appendChild(line);
      while (polite.childNodes.length > 5) polite.removeChild(polite.firstChild);
    }
  }

  var audio = { context: null, node: null };
  function audioOpen(ptr, rate, channels, block) {
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return 0;
    try {
      audio.context = new Ctx({ sampleRate: rate, latencyHint: "interactive" });
      audio.node = audio.context.createScriptProcessor(block, 0, channels);
    } catch (e) {
      console.warn("earshot: no Web Audio: " + e);
      return 0;
    }
    web.audio.sampleRate = audio.context.sampleRate;
    audio.node.onaudioprocess = function (event) {
      var out = event.outputBuffer;
      var n = out.length;
      var p = Module._ear__web_audio_render(ptr, n);
      var heap = Module.HEAPF32;
      var base = p >> 2;
      var peak = 0, sum = 0;
      for (var ch = 0; ch < channels; ch++) {
        var data = out.getChannelData(ch);
        for (var i = 0; i < n; i++) {
          var x = p ? heap[base + i * channels + ch] : 0;
          data[i] = x;
          var a = x < 0 ? -x : x;
          if (a > peak) peak = a;
          sum += x * x;
        }
      }
      var a2 = web.audio;
      a2.callbacks++;
      a2.frames += n;
      a2.peak = peak;
      a2.rms = Math.sqrt(sum / (n * channels));
      if (peak > a2.maxPeak) a2.maxPeak = peak;
      if (a2.rms > a2.maxRms) a2.maxRms = a2.rms;
    };
    audio.node.connect(audio.context.destination);
    audio.context.resume();
    return 1;
  }
  function audioClose() {
    if (audio.node) {
      audio.node.onaudioprocess = null;
      audio.node.disconnect();
    }
    if (audio.context) audio.context.close();
    audio.node = audio.context = null;
  }

  // Saves: the program's working folder /earshot is IndexedDB (emscripten's IDBFS),
  // read before main runs and written back every 2 s, when the game ends and when the
  // page is left, so a save made with a relative path outlives the page.
  var saves = { syncing: false, waiting: null, timer: null };
  function syncSaves(done) {
    if (!Module.FS || !web.savesReady) { if (done) done(); return; }
    if (saves.syncing) {
      // One more write after this one, for everybody who asked meanwhile.
      saves.waiting = saves.waiting || [];
      if (done) saves.waiting.push(done);
      return;
    }
    saves.syncing = true;
    Module.FS.syncfs(false, function (err) {
      saves.syncing = false;
      if (err) console.warn("earshot: the saves could not be written to browser storage: " + err);
      else web.savesWritten++;
      if (done) done();
      if (saves.waiting) {
        var next = saves.waiting;
        saves.waiting = null;
        syncSaves(function () { next.forEach(function (f) { f(); }); });
      }
    });
  }
  web.savesReady = false;
  web.savesWritten = 0;
  web.syncSaves = syncSaves;
  window.addEventListener("pagehide", function () { syncSaves(); });

  window.Module = {
    noInitialRun: true,
    preRun: [function () {
      var FS = Module.FS;
      try {
        FS.mkdir("/earshot");
        FS.mount(FS.filesystems.IDBFS, {}, "/earshot");
        FS.chdir("/earshot");
      } catch (e) {
        console.warn("earshot: no browser storage for saves: " + e);
        return;
      }
      Module.addRunDependency("earshot-saves");
      FS.syncfs(true, function (err) {
        if (err) console.warn("earshot: the saves could not be read from browser storage: " + err);
        else web.savesReady = true;
        Module.removeRunDependency("earshot-saves");
      });
    }],
    print: function (text) { web.printed.push(text); console.log(text); },
    printErr: function (text) { web.warned.push(text); console.warn(text); },
    earAnnounce: announce,
    earAnnounceStop: function () {
      if (assertiveTimer) clearTimeout(assertiveTimer);
      assertiveTimer = null;
      assertive.textContent = "";
      polite.textContent = "";
    },
    earAudioOpen: audioOpen,
    earAudioClose: audioClose,
    earFrame: function (steps) { web.steps = steps; web.frames++; },
    earLanguage: function (code) {
      web.language = code;
      document.documentElement.lang = code;
      assertive.lang = code;
      polite.lang = code;
    },
    earPaused: function (paused) {
      web.paused = paused;
      status.textContent = paused
        ? "Paused: the game area does not have the focus. Go back to it to play on."
        : "Playing.";
    },
    earEnded: function (failed) {
      web.ended = true;
      if (saves.timer) clearInterval(saves.timer);
      syncSaves(function () { web.savedAtEnd = true; });
      var text = failed ? "The game could not start." : "The game has ended. Reload the page to play again.";
      status.textContent = text;
      announce(text, false);
    },
    onRuntimeInitialized: function () {
      web.ready = true;
      startButton.disabled = false;
      var text = "Ready. Press the Start button to begin; sound starts only when you press it.";
      status.textContent = text;
      announce(text, false);
    },
  };

  startButton.addEventListener("click", function () {
    if (web.started || !web.ready) return;
    web.started = true;
    startButton.disabled = true;
    status.textContent = "Playing.";
    area.focus();
    // Inside the click: the browser lets the game's sound start now.
    saves.timer = setInterval(syncSaves, 2000);
    Module.callMain(args);
  });

  var program = document.createElement("script");
  program.src = game + ".js";
  program.onerror = function () {
    status.textContent = "The game's program " + game + ".js could not be loaded.";
    console.error("earshot: " + game + ".js could not be loaded");
  };
  document.body.appendChild(program);
})();
