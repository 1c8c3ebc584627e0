// Competitions (/embed/competitions, docs/competitions.md): the person's current competitions (joined) and the
// others open to join, with Join and Leave, and a leaderboard for each (/embed/competitions/{id}): the standings page
// by page, shared ranks for ties, the person's own place with the participants around it, and a way to take part
// (the timed challenge or the camera for the competition's exercise). Scores are only what the server saw: a live
// session from a camera or a run saved on the server; a replayed recording is counted but never scores.
import { h, show } from './dom.js';

const PAGE = 20;

function scoreWords(competition, score) {
  switch (competition.metric) {
    case 'total_reps': return `${score} rep${score === 1 ? '' : 's'}`;
    case 'workouts_completed': return `${score} workout${score === 1 ? '' : 's'}`;
    case 'best_challenge': return `${score} rep${score === 1 ? '' : 's'} in ${competition.challengeSeconds} s`;
    default: return String(score);
  }
}

function whatCounts(competition) {
  switch (competition.metric) {
    case 'total_reps': return 'Counts every repetition the camera counts, added up.';
    case 'workouts_completed': return 'Counts each workout you finish (at least 5 minutes of training).';
    case 'best_challenge': return `Counts your best ${competition.challengeSeconds}-second challenge.`;
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
  const format = new Intl.DateTimeFormat(undefined, options);
  return `${format.format(start)} – ${format.format(end)}`;
}

function statusWords(competition) {
  if (competition.status === 'upcoming') return 'Starts soon';
  if (competition.status === 'ended') return 'Ended: final standings';
  const ends = new Intl.DateTimeFormat(undefined, {
    weekday: 'short', day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit', timeZone: competition.timeZone,
  }).format(new Date(competition.endsAt));
  return `Open until ${ends}`;
}

export class CompetitionsView {
  constructor(context) {
    this.context = context;
  }

  async open() {
    show(h('p', { class: 'status' }, 'Loading…'));
    this.status = h('p', { class: 'status', id: 'competitions-status', role: 'status' });
    this.current = h('ul', { class: 'competitions', id: 'current-competitions', 'aria-labelledby': 'current-heading' });
    this.others = h('ul', { class: 'competitions', id: 'open-competitions', 'aria-labelledby': 'open-heading' });
    show(h('section', { class: 'competitions-page' },
      h('h1', { id: 'competitions-heading' }, 'Competitions'),
      this.status,
      h('h2', { id: 'current-heading' }, 'Current competitions'), this.current,
      h('h2', { id: 'open-heading' }, 'Open to join'), this.others,
      h('div', { class: 'actions' },
        h('button', { id: 'exit', class: 'quiet', onClick: () => this.context.bridge.post('exit_kinestex', {}) },
          'Close'))));
    await this.refresh();
  }

  async refresh() {
    let list;
    try {
      list = await this.context.api.get('/v1/competitions');
    } catch (error) {
      this.context.fail('api', `competitions: ${error.message}`);
      return;
    }
    const joined = list.items.filter((c) => c.joined);
    const open = list.items.filter((c) => !c.joined && c.status !== 'ended');
    this.current.replaceChildren(...(joined.length
      ? joined.map((c) => this.item(c))
      : [h('li', { class: 'empty' }, 'You have not joined a competition yet.')]));
    this.others.replaceChildren(...(open.length
      ? open.map((c) => this.item(c))
      : [h('li', { class: 'empty' }, 'No other competition is open now.')]));
  }

  item(competition) {
    const standing = competition.standing;
    const actions = [
      h('button', {
        type: 'button', class: 'board', 'aria-label': `Leaderboard of ${competition.name}`,
        onClick: () => this.context.navigate(`/embed/competitions/${encodeURIComponent(competition.id)}`),
      }, 'Leaderboard'),
    ];
    if (competition.status !== 'ended') {
      actions.push(competition.joined
        ? h('button', {
          type: 'button', class: 'leave', 'aria-label': `Leave ${competition.name}`, onClick: () => this.leave(competition),
        }, 'Leave')
        : h('button', {
          type: 'button', class: 'primary join', 'aria-label': `Join ${competition.name}`, onClick: () => this.join(competition),
        }, 'Join'));
    }
    return h('li', { 'data-competition-id': competition.id, 'data-status': competition.status },
      h('h3', {}, competition.name),
      competition.description ? h('p', {}, competition.description) : null,
      h('p', { class: 'meta' }, `${whatCounts(competition)} ${period(competition)}. ${statusWords(competition)}.`),
      standing
        ? h('p', { class: 'standing' }, `You: ${ordinal(standing.rank)} place, ${scoreWords(competition, standing.score)}`)
        : null,
      h('div', { class: 'actions' }, actions));
  }

  async join(competition) {
    let membership;
    try {
      membership = await this.context.api.request('PUT', `/v1/competitions/${encodeURIComponent(competition.id)}/membership`);
    } catch (error) {
      this.status.textContent = `Not joined: ${error.message}`;
      return;
    }
    this.context.bridge.post('competition_joined', {
      competitionId: membership.competition.id, name: membership.competition.name,
      metric: membership.competition.metric, joinedAt: membership.joinedAt,
    });
    await this.refresh();
    this.status.textContent = `Joined ${competition.name}.`;
    const leave = this.current.querySelector(`li[data-competition-id="${CSS.escape(competition.id)}"] button.leave`);
    if (leave) leave.focus();
  }

  async leave(competition) {
    try {
      await this.context.api.request('DELETE', `/v1/competitions/${encodeURIComponent(competition.id)}/membership`);
    } catch (error) {
      this.status.textContent = `Not left: ${error.message}`;
      return;
    }
    await this.refresh();
    this.status.textContent = `Left ${competition.name}.`;
    const join = this.others.querySelector(`li[data-competition-id="${CSS.escape(competition.id)}"] button.join`);
    if (join) join.focus();
  }
}

function ordinal(rank) {
  const rules = new Intl.PluralRules('en', { type: 'ordinal' });
  const suffix = { one: 'st', two: 'nd', few: 'rd', other: 'th' }[rules.select(rank)];
  return `${rank}${suffix}`;
}

export class CompetitionBoardView {
  constructor(context, id) {
    this.context = context;
    this.id = id;
  }

  async open() {
    show(h('p', { class: 'status' }, 'Loading…'));
    let board;
    try {
      board = await this.page(null);
    } catch (error) {
      return this.context.fail(error.status === 404 ? 'not_found' : 'api', `competition: ${error.message}`);
    }
    const competition = board.competition;
    this.competition = competition;
    this.rows = h('tbody', { id: 'standings' });
    this.more = h('button', { type: 'button', id: 'more-standings', hidden: true, onClick: () => this.next() }, 'Show more');
    this.status = h('p', { class: 'status', id: 'board-status', role: 'status' });
    const take = this.takePart(competition);
    show(h('section', { class: 'competition-board' },
      h('h1', { id: 'board-heading' }, competition.name),
      h('p', { class: 'meta' }, `${whatCounts(competition)} ${period(competition)}. ${statusWords(competition)}.`),
      h('p', { id: 'participants' }, `${board.participants} participant${board.participants === 1 ? '' : 's'}${board.final ? ' · final' : ''}`),
      this.mine(board),
      h('table', { class: 'leaderboard', 'aria-labelledby': 'board-heading' },
        h('caption', {}, board.final ? 'Final standings' : 'Standings'),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Rank'), h('th', { scope: 'col' }, 'Name'),
          h('th', { scope: 'col' }, 'Score'))),
        this.rows),
      this.more, this.status,
      h('div', { class: 'actions' }, take,
        h('button', { type: 'button', id: 'all-competitions', onClick: () => this.context.navigate('/embed/competitions') },
          'All competitions'))));
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
      this.status.textContent = `More standings could not be read: ${error.message}`;
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
      h('td', {}, entry.isMe ? `${entry.name} (you)` : entry.name),
      h('td', {}, scoreWords(this.competition, entry.score)));
  }

  // The person's place and the participants around it, whatever page the standings are on.
  mine(board) {
    if (!board.me) {
      return h('p', { id: 'my-place' }, board.competition.joined
        ? 'You are not ranked yet.' : 'Join this competition to be ranked.');
    }
    const around = [...board.above, board.me, ...board.below];
    return h('section', { 'aria-labelledby': 'my-place-heading', class: 'my-place' },
      h('h2', { id: 'my-place-heading' }, 'Your place'),
      h('p', { id: 'my-place' }, `${ordinal(board.me.rank)} of ${board.participants}, ${scoreWords(board.competition, board.me.score)}`),
      h('ol', { class: 'around', id: 'around-me' }, around.map((entry) => h('li', { class: entry.isMe ? 'me' : null },
        `${entry.rank}. ${entry.isMe ? 'You' : entry.name}: ${scoreWords(board.competition, entry.score)}`))));
  }

  // How to take part now: the timed challenge, or the camera for the exercise; nothing once it has ended.
  takePart(competition) {
    if (competition.status !== 'open' || !competition.joined || !competition.poseExercise) return null;
    if (competition.metric === 'best_challenge') {
      const path = `/embed/challenge?exercise=${encodeURIComponent(competition.poseExercise)}&duration=${competition.challengeSeconds}`;
      return h('button', { type: 'button', class: 'primary', id: 'take-part', onClick: () => this.context.navigate(path) },
        'Do the challenge');
    }
    if (competition.metric === 'total_reps') {
      const path = `/embed/camera?exercise=${encodeURIComponent(competition.poseExercise)}`;
      return h('button', { type: 'button', class: 'primary', id: 'take-part', onClick: () => this.context.navigate(path) },
        'Count repetitions now');
    }
    return null;
  }
}
