// Competitions (/embed/competitions, docs/competitions.md): the person's current competitions (joined) and the
// others open to join, with Join and Leave, and a leaderboard for each (/embed/competitions/{id}): the standings page
// by page, shared ranks for ties, the person's own place with the participants around it, and a way to take part
// (the timed challenge or the camera for the competition's exercise). Scores are only what the server saw: a live
// session from a camera or a run saved on the server; a replayed recording is counted but never scores.
import { h, show } from './dom.js';
import { t, currentLocale } from './i18n.js';

const PAGE = 20;

function scoreWords(competition, score) {
  switch (competition.metric) {
    case 'total_reps': return t('competitions.reps', { count: score });
    case 'workouts_completed': return t('competitions.workouts', { count: score });
    case 'best_challenge': return t('competitions.repsIn', { count: score, seconds: competition.challengeSeconds });
    default: return t('competitions.score', { score });
  }
}

function whatCounts(competition) {
  switch (competition.metric) {
    case 'total_reps': return t('competitions.countsReps');
    case 'workouts_completed': return t('competitions.countsWorkouts');
    case 'best_challenge': return t('competitions.countsChallenge', { seconds: competition.challengeSeconds });
    default: return '';
  }
}

// "27 Nov – 26 Dec" in the competition's own time zone, with the year when it is not this year's.
function period(competition) {
  const options = { day: 'numeric', month: 'short', timeZone: competition.timeZone };
  const start = new Date(competition.startsAt);
  // `end` is exclusive: the last moment shown is the minute before.
  const end = new Date(new Date(competition.endsAt).getTime() - 60_000);
  const thisYear = new Date().getFullYear();
  if (start.getFullYear() !== thisYear || end.getFullYear() !== thisYear) options.year = 'numeric';
  const format = new Intl.DateTimeFormat(currentLocale(), options);
  return `${format.format(start)} – ${format.format(end)}`;
}

function statusWords(competition) {
  if (competition.status === 'upcoming') return t('competitions.startsSoon');
  if (competition.status === 'ended') return t('competitions.ended');
  const ends = new Intl.DateTimeFormat(currentLocale(), {
    weekday: 'short', day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit', timeZone: competition.timeZone,
  }).format(new Date(competition.endsAt));
  return t('competitions.openUntil', { date: ends });
}

export class CompetitionsView {
  constructor(context) {
    this.context = context;
  }

  async open() {
    show(h('p', { class: 'status' }, t('common.loading')));
    this.status = h('p', { class: 'status', id: 'competitions-status', role: 'status' });
    this.current = h('ul', { class: 'competitions', id: 'current-competitions', 'aria-labelledby': 'current-heading' });
    this.others = h('ul', { class: 'competitions', id: 'open-competitions', 'aria-labelledby': 'open-heading' });
    show(h('section', { class: 'competitions-page' },
      h('h1', { id: 'competitions-heading' }, t('competitions.heading')),
      this.status,
      h('h2', { id: 'current-heading' }, t('competitions.current')), this.current,
      h('h2', { id: 'open-heading' }, t('competitions.open')), this.others,
      h('div', { class: 'actions' },
        h('button', { id: 'exit', class: 'quiet', onClick: () => this.context.bridge.post('exit_kinestex', {}) },
          t('common.close')))));
    await this.refresh();
  }

  async refresh() {
    let list;
    try {
      list = await this.context.api.get('/v1/competitions');
    } catch (error) {
      this.context.fail('api', t('error.prefixed', { field: 'competitions', message: error.message }));
      return;
    }
    const joined = list.items.filter((c) => c.joined);
    const open = list.items.filter((c) => !c.joined && c.status !== 'ended');
    this.current.replaceChildren(...(joined.length
      ? joined.map((c) => this.item(c))
      : [h('li', { class: 'empty' }, t('competitions.noneJoined'))]));
    this.others.replaceChildren(...(open.length
      ? open.map((c) => this.item(c))
      : [h('li', { class: 'empty' }, t('competitions.noneOpen'))]));
  }

  item(competition) {
    const standing = competition.standing;
    const actions = [
      h('button', {
        type: 'button', class: 'board', 'aria-label': t('competitions.boardOf', { name: competition.name }),
        onClick: () => this.context.navigate(`/embed/competitions/${encodeURIComponent(competition.id)}`),
      }, t('competitions.board')),
    ];
    if (competition.status !== 'ended') {
      actions.push(competition.joined
        ? h('button', {
          type: 'button', class: 'leave', 'aria-label': t('competitions.leaveNamed', { name: competition.name }), onClick: () => this.leave(competition),
        }, t('competitions.leave'))
        : h('button', {
          type: 'button', class: 'primary join', 'aria-label': t('competitions.joinNamed', { name: competition.name }), onClick: () => this.join(competition),
        }, t('competitions.join')));
    }
    return h('li', { 'data-competition-id': competition.id, 'data-status': competition.status },
      h('h3', {}, competition.name),
      competition.description ? h('p', {}, competition.description) : null,
      h('p', { class: 'meta' }, t('competitions.meta', { counts: whatCounts(competition), period: period(competition), status: statusWords(competition) })),
      standing
        ? h('p', { class: 'standing' }, t('competitions.you', { place: ordinal(standing.rank), score: scoreWords(competition, standing.score) }))
        : null,
      h('div', { class: 'actions' }, actions));
  }

  async join(competition) {
    let membership;
    try {
      membership = await this.context.api.request('PUT', `/v1/competitions/${encodeURIComponent(competition.id)}/membership`);
    } catch (error) {
      this.status.textContent = t('competitions.notJoined', { message: error.message });
      return;
    }
    this.context.bridge.post('competition_joined', {
      competitionId: membership.competition.id, name: membership.competition.name,
      metric: membership.competition.metric, joinedAt: membership.joinedAt,
    });
    await this.refresh();
    this.status.textContent = t('competitions.joined', { name: competition.name });
    const leave = this.current.querySelector(`li[data-competition-id="${CSS.escape(competition.id)}"] button.leave`);
    if (leave) leave.focus();
  }

  async leave(competition) {
    try {
      await this.context.api.request('DELETE', `/v1/competitions/${encodeURIComponent(competition.id)}/membership`);
    } catch (error) {
      this.status.textContent = t('competitions.notLeft', { message: error.message });
      return;
    }
    await this.refresh();
    this.status.textContent = t('competitions.left', { name: competition.name });
    const join = this.others.querySelector(`li[data-competition-id="${CSS.escape(competition.id)}"] button.join`);
    if (join) join.focus();
  }
}

function ordinal(rank) {
  return t('competitions.ordinal', { count: rank, rank: String(rank) });
}

export class CompetitionBoardView {
  constructor(context, id) {
    this.context = context;
    this.id = id;
  }

  async open() {
    show(h('p', { class: 'status' }, t('common.loading')));
    let board;
    try {
      board = await this.page(null);
    } catch (error) {
      return this.context.fail(error.status === 404 ? 'not_found' : 'api', t('error.prefixed', { field: 'competition', message: error.message }));
    }
    const competition = board.competition;
    this.competition = competition;
    this.rows = h('tbody', { id: 'standings' });
    this.more = h('button', { type: 'button', id: 'more-standings', hidden: true, onClick: () => this.next() }, t('common.showMore'));
    this.status = h('p', { class: 'status', id: 'board-status', role: 'status' });
    const take = this.takePart(competition);
    show(h('section', { class: 'competition-board' },
      h('h1', { id: 'board-heading' }, competition.name),
      h('p', { class: 'meta' }, t('competitions.meta', { counts: whatCounts(competition), period: period(competition), status: statusWords(competition) })),
      h('p', { id: 'participants' }, t(board.final ? 'competitions.participantsFinal' : 'competitions.participants', { count: board.participants })),
      this.mine(board),
      h('table', { class: 'leaderboard', 'aria-labelledby': 'board-heading' },
        h('caption', {}, board.final ? t('competitions.finalStandings') : t('competitions.standings')),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('board.rank')), h('th', { scope: 'col' }, t('board.name')),
          h('th', { scope: 'col' }, t('board.score')))),
        this.rows),
      this.more, this.status,
      h('div', { class: 'actions' }, take,
        h('button', { type: 'button', id: 'all-competitions', onClick: () => this.context.navigate('/embed/competitions') },
          t('competitions.all')))));
    this.append(board);
  }

  page(cursor) {
    const query = new URLSearchParams({ limit: String(PAGE), neighbours: '2' });
    if (cursor) query.set('cursor', cursor);
    return this.context.api.get(`/v1/competitions/${encodeURIComponent(this.id)}/leaderboard?${query}`);
  }

  async next() {
    let board;
    try {
      board = await this.page(this.cursor);
    } catch (error) {
      this.status.textContent = t('competitions.moreFailed', { message: error.message });
      return;
    }
    const first = this.rows.children.length;
    this.append(board);
    const row = this.rows.children[first];
    if (row) {
      row.setAttribute('tabindex', '-1');
      row.focus();
    }
  }

  append(board) {
    for (const entry of board.entries) this.rows.append(this.row(entry));
    this.cursor = board.nextCursor || null;
    this.more.hidden = !this.cursor;
  }

  row(entry) {
    return h('tr', { class: entry.isMe ? 'me' : null, 'data-rank': entry.rank },
      h('td', {}, String(entry.rank)),
      h('td', {}, entry.isMe ? t('board.nameYou', { name: entry.name }) : entry.name),
      h('td', {}, scoreWords(this.competition, entry.score)));
  }

  // The person's place and the participants around it, whatever page the standings are on.
  mine(board) {
    if (!board.me) {
      return h('p', { id: 'my-place' }, board.competition.joined
        ? t('competitions.notRanked') : t('competitions.joinToRank'));
    }
    const around = [...board.above, board.me, ...board.below];
    return h('section', { 'aria-labelledby': 'my-place-heading', class: 'my-place' },
      h('h2', { id: 'my-place-heading' }, t('competitions.yourPlace')),
      h('p', { id: 'my-place' }, t('competitions.placeOf', { place: ordinal(board.me.rank), participants: board.participants, score: scoreWords(board.competition, board.me.score) })),
      h('ol', { class: 'around', id: 'around-me' }, around.map((entry) => h('li', { class: entry.isMe ? 'me' : null },
        t('competitions.around', { rank: String(entry.rank), name: entry.isMe ? t('competitions.youName') : entry.name, score: scoreWords(board.competition, entry.score) })))));
  }

  // How to take part now: the timed challenge, or the camera for the exercise; nothing once it has ended.
  takePart(competition) {
    if (competition.status !== 'open' || !competition.joined || !competition.poseExercise) return null;
    if (competition.metric === 'best_challenge') {
      const path = `/embed/challenge?exercise=${encodeURIComponent(competition.poseExercise)}&duration=${competition.challengeSeconds}`;
      return h('button', { type: 'button', class: 'primary', id: 'take-part', onClick: () => this.context.navigate(path) },
        t('competitions.doChallenge'));
    }
    if (competition.metric === 'total_reps') {
      const path = `/embed/camera?exercise=${encodeURIComponent(competition.poseExercise)}`;
      return h('button', { type: 'button', class: 'primary', id: 'take-part', onClick: () => this.context.navigate(path) },
        t('competitions.countNow'));
    }
    return null;
  }
}
