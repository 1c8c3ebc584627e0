// The embedded experience: waits for the host's configuration (docs/embed-protocol.md), signs the person in, and
// shows the view the URL names: home, a plan, the workout player, the camera component, a challenge, the pain map,
// the progress charts, the workout themes, the goals, the trainer's chat, the fitness test, the exercise catalogue
// or the competitions.
import { HostBridge } from './bridge.js';
import { Api } from './api.js';
import { h, show } from './dom.js';
import { ReplaySource, CameraSource } from './pose-source.js';
import { WorkoutPlayer } from './player.js';
import { HomeView } from './home.js';
import { PlanView } from './plan.js';
import { CameraView } from './camera.js';
import { ChallengeView, LeaderboardView } from './challenge.js';
import { PainMapView } from './pain-map.js';
import { ProgressView } from './progress.js';
import { GoalsView } from './goals.js';
import { ThemesView } from './themes.js';
import { TrainerView } from './trainer.js';
import { FitnessTestView } from './fitness.js';
import { PageLook } from './style.js';
import { ExercisesView, ExerciseView } from './exercises.js';
import { t, setLanguage } from './i18n.js';
import { CameraStage } from './overlay.js';
import { CompetitionsView, CompetitionBoardView } from './competitions.js';
import { ProfileView } from './profile.js';
import { PeopleView } from './people.js';

const settings = JSON.parse(document.body.dataset.forma || '{}');
const params = new URLSearchParams(location.search);
const bridge = new HostBridge({
  allowedOrigins: settings.allowedOrigins || [],
  vocabulary: params.get('events') === '2023' ? '2023' : 'current',
});
const api = new Api();
const route = parseRoute(location.pathname);
// The look comes first: the URL's style (?style=light) before anything is drawn, the configuration's later.
// So is the language (?language=de, else the browser's), before any word is drawn.
const urlLanguageProblem = setLanguage(params.get('language'));
const look = new PageLook(settings.branding, settings.company);
look.apply();
const urlStyleProblem = look.setStyle(params.get('style'));

let configured = false;
let failed = false;
let view = null;
let video = null;
let stage = null;

// What views share: the API, the bridge, errors, and the pose source (one per page, made on first use).
const context = {
  api,
  bridge,
  settings,
  // The current URL's parameters: a view opened by navigate() reads its own (a challenge's exercise and duration).
  get params() {
    return new URLSearchParams(location.search);
  },
  currentSource: null,
  fail(code, message) {
    failed = true;
    bridge.post('error_occurred', { code, message });
    show(h('section', { class: 'error', role: 'alert' }, h('h1', {}, t('error.heading')), h('p', { id: 'error' }, message)));
  },
  // A problem the person can carry on through (the view stays); the host is told.
  report(code, message) {
    bridge.post('error_occurred', { code, message });
    const note = document.getElementById('notice') || document.body.appendChild(h('p', { id: 'notice', role: 'alert' }));
    note.textContent = message;
  },
  videoElement() {
    if (!video) video = h('video', { id: 'camera', playsinline: true, muted: true, autoplay: true });
    video.hidden = !(context.currentSource instanceof CameraSource);
    return video;
  },
  // The video (or the replayed skeleton) with the tracked body, the measured joint and the repetition ring drawn
  // over it; one per page, like the video.
  stage() {
    const element = context.videoElement();
    if (!stage) stage = new CameraStage(element);
    return stage;
  },
  async poseSource() {
    if (context.currentSource) return context.currentSource;
    const replay = params.get('replay');
    const source = replay ? new ReplaySource(replay) : new CameraSource(settings.mediaPipe, context.videoElement());
    try {
      await source.prepare();
    } catch (error) {
      context.report(replay ? 'replay' : 'camera', error.message);
      return null;
    }
    context.currentSource = source;
    return source;
  },
  releaseCamera() {
    if (context.currentSource && context.currentSource.release) context.currentSource.release();
  },
  navigate(path) {
    const url = new URL(path, location.href);
    for (const name of ['company', 'events', 'replay', 'style', 'language']) {
      if (params.has(name) && !url.searchParams.has(name)) url.searchParams.set(name, params.get(name));
    }
    history.pushState({}, '', url);
    render(parseRoute(url.pathname));
  },
};

function parseRoute(pathname) {
  const parts = pathname.replace(/^\/embed\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0) return { name: 'home' };
  if (parts[0] === 'plan' && parts.length === 2) return { name: 'plan', id: parts[1] };
  if (parts[0] === 'workout' && parts.length === 2) return { name: 'workout', id: parts[1] };
  if (parts[0] === 'camera' && parts.length === 1) return { name: 'camera' };
  if (parts[0] === 'challenge' && parts.length === 1) return { name: 'challenge' };
  if (parts[0] === 'leaderboard' && parts.length === 1) return { name: 'leaderboard' };
  if (parts[0] === 'pain-map' && parts.length === 1) return { name: 'pain-map' };
  if (parts[0] === 'progress' && parts.length === 1) return { name: 'progress' };
  if (parts[0] === 'goals' && parts.length === 1) return { name: 'goals' };
  if (parts[0] === 'themes' && parts.length === 1) return { name: 'themes' };
  if (parts[0] === 'trainer' && parts.length === 1) return { name: 'trainer' };
  if (parts[0] === 'exercises' && parts.length === 1) return { name: 'exercises' };
  if (parts[0] === 'competitions' && parts.length === 1) return { name: 'competitions' };
  if (parts[0] === 'competitions' && parts.length === 2) return { name: 'competition', id: parts[1] };
  if (parts[0] === 'exercise' && parts.length === 2) return { name: 'exercise', id: parts[1] };
  if (parts[0] === 'fitness-test' && parts.length === 1) return { name: 'fitness-test' };
  if (parts[0] === 'profile' && parts.length === 1) return { name: 'profile' };
  if (parts[0] === 'people' && parts.length === 1) return { name: 'people' };
  return { name: 'unknown', path: pathname };
}

// ---- host → page messages

function companyKey(name) {
  return String(name).normalize('NFKD').replace(/[\u0300-\u036f]/g, '').trim().toLowerCase();
}

window.addEventListener('message', (event) => {
  // Only the company's allowed origins, or the page itself (a native host calls window.postMessage in the page).
  const trusted = event.origin === location.origin || (settings.allowedOrigins || []).includes(event.origin);
  if (!trusted) return;
  let data = event.data;
  if (typeof data === 'string') {
    try {
      data = JSON.parse(data);
    } catch (error) {
      return;
    }
  }
  if (!data || typeof data !== 'object') return;
  if (data.type !== undefined && typeof data.type === 'string' && data.data !== undefined) return; // an event echo
  if (!configured && (data.key !== undefined || data.token !== undefined || data.company !== undefined)) {
    configured = true;
    if (event.origin !== location.origin) bridge.hostOrigin = event.origin;
    configure(data).catch((error) => context.fail('configuration', error.message));
    return;
  }
  if (configured && view && typeof view.command === 'function') view.command(data);
});

async function configure(config) {
  if (failed) return;
  const company = typeof config.company === 'string' ? config.company.trim() : '';
  if (!company) return context.fail('configuration', t('error.noCompany'));
  if (settings.company && companyKey(settings.company) !== companyKey(company)) {
    return context.fail('configuration', t('error.otherCompany', { page: settings.company, company }));
  }
  try {
    if (typeof config.token === 'string' && config.token) {
      api.token = config.token;
      const me = await api.get('/v1/me');
      if (me.company && companyKey(me.company.name) !== companyKey(company)) {
        return context.fail('unauthorized', t('error.tokenOtherCompany', { company }));
      }
    } else if (typeof config.key === 'string' && config.key) {
      if (typeof config.userId !== 'string' || !config.userId) {
        return context.fail('configuration', t('error.noUserId'));
      }
      const grant = await api.request('POST', '/v1/sessions', {
        headers: { 'X-Forma-Key': config.key },
        body: { userId: config.userId, company },
        token: null,
      });
      api.token = grant.token;
    } else {
      return context.fail('configuration', t('error.noKey'));
    }
  } catch (error) {
    const code = error.status === 401 || error.status === 403 ? 'unauthorized' : 'api';
    return context.fail(code, `${error.status === 401 ? 'key' : 'sign-in'}: ${error.message}`);
  }
  const styleProblem = look.setStyle(config.style);
  if (styleProblem) context.report('configuration', styleProblem);
  // The configuration's language, when it names one, wins over the URL's and the browser's.
  if (config.language !== undefined && config.language !== null && config.language !== '') {
    const languageProblem = setLanguage(config.language);
    if (languageProblem) context.report('configuration', languageProblem);
  }
  await applyBodyData(config);
  if (!failed) render(route, config);
}

// Age, height (cm), weight (kg), gender and lifestyle from the host fill the profile; bad values are reported.
async function applyBodyData(config) {
  const update = {};
  if (Number.isFinite(config.age)) update.age = Math.round(config.age);
  if (Number.isFinite(config.height)) update.heightCm = config.height;
  if (Number.isFinite(config.weight)) update.weightKg = config.weight;
  if (typeof config.gender === 'string' && config.gender) update.gender = config.gender.toLowerCase();
  if (typeof config.lifestyle === 'string' && config.lifestyle) update.lifestyle = config.lifestyle.toLowerCase();
  if (Object.keys(update).length === 0) return;
  try {
    await api.request('PATCH', '/v1/me', { body: update });
  } catch (error) {
    context.report('profile', `profile: ${error.message}`);
  }
}

// ---- views

// `config` is the host's first configuration message, which may already carry a view command (a camera host sends
// its `currentExercise` there).
function render(next, config = {}) {
  if (view && view.leave) view.leave();
  view = null;
  switch (next.name) {
    case 'home':
      // The host's choices at launch: its plans' category first, its workouts' category (docs/embed-protocol.md).
      view = new HomeView(context, { planCategory: params.get('planC'), workoutCategory: params.get('category') });
      return view.open();
    case 'plan':
      view = new PlanView(context, next.id);
      return view.open();
    case 'workout':
      view = new WorkoutPlayer(context, next.id);
      return view.open();
    case 'camera':
      view = new CameraView(context);
      return view.open(config);
    case 'challenge':
      view = new ChallengeView(context);
      return view.open();
    case 'leaderboard':
      view = new LeaderboardView(context);
      return view.open();
    case 'pain-map':
      view = new PainMapView(context);
      return view.open();
    case 'progress':
      view = new ProgressView(context);
      return view.open();
    case 'goals':
      view = new GoalsView(context);
      return view.open();
    case 'themes':
      view = new ThemesView(context);
      return view.open();
    case 'trainer':
      view = new TrainerView(context);
      return view.open();
    case 'exercises':
      view = new ExercisesView(context);
      return view.open();
    case 'competitions':
      view = new CompetitionsView(context);
      return view.open();
    case 'competition':
      view = new CompetitionBoardView(context, next.id);
      return view.open();
    case 'exercise':
      view = new ExerciseView(context, next.id);
      return view.open();
    case 'fitness-test':
      view = new FitnessTestView(context);
      return view.open();
    case 'profile':
      view = new ProfileView(context);
      return view.open();
    case 'people':
      view = new PeopleView(context);
      return view.open();
    default:
      return context.fail('not_found', t('error.noPage', { path: next.path }));
  }
}

window.addEventListener('popstate', () => render(parseRoute(location.pathname)));

bridge.post('kinestex_launched', { page: route.name });
if (settings.problem) {
  context.fail('configuration', settings.problem);
} else if (route.name === 'unknown') {
  context.fail('not_found', t('error.noPage', { path: route.path }));
} else {
  show(h('p', { class: 'status' }, t('common.waiting')));
}
if (urlStyleProblem) context.report('configuration', urlStyleProblem);
if (urlLanguageProblem) context.report('configuration', urlLanguageProblem);
