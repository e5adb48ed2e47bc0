"""Email a seat when it is its turn, for games played over days (Board Game Arena does the same).

The host configures an SMTP server (``ecliptic serve --smtp``, ``$ECLIPTIC_SMTP_URL``), a sender
and the public address of its pages; without all three nothing is ever sent and the game page
does not offer it. A seat gives its address on the game page; :class:`ecliptic.server.games.GameService`
decides when an email is due, claims it in the database (so several processes send it once) and
hands it to :meth:`Mailer.send`, which sends it in a worker thread with a timeout: a slow or
broken mail server never holds the event loop or a game, and a failure is one WARNING line with
the reason (never the password, which only :meth:`MailSettings.connect` reads). A failure that
may pass (the mail server away or busy, a 4xx answer) is tried again after each of
:attr:`MailSettings.retries` while the email is still due: a player away for days must not miss
their turn because the mail server restarted once. A refusal (a 5xx answer: no such mailbox, a
wrong password) is not: it would be refused again.

The email's link is the game page's address without a token: the server keeps only token hashes,
and an email is no place for a secret anyway. The browser that holds the seat's token (in its
localStorage, as every join link's) finds it on that page.

Anyone may create games and give any address, so the server must not become a way to flood a
stranger: every email carries an unsubscribe link of its own (``/mail/unsubscribe/TOKEN``, also
as RFC 8058's one-click ``List-Unsubscribe`` headers, which mail clients show as a button) that
stops every email of this server to that address, whoever gave it in whichever game; and an
address gets at most :attr:`MailSettings.per_hour` emails an hour, all games together. The
token can do nothing but that, so an email may carry it.
"""

from __future__ import annotations

import asyncio
import email.policy
import logging
import smtplib
import ssl
from collections.abc import Sequence
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from enum import Enum
from urllib.parse import unquote, urlsplit

from ecliptic.server.models import MailRequest

log = logging.getLogger("ecliptic.server")

MAIL_DELAY = 60.0
"""Seconds a seat waits for its decision before it is emailed: a fast game (both players on
their pages, or bots answering at once) never sends one for a decision settled in seconds."""
MAIL_PER_HOUR = 20
"""Emails one address may get in an hour, all games together; beyond it they are skipped."""
MAIL_TIMEOUT = 20.0
"""Seconds one SMTP conversation (connect, TLS, login, send) may take before it is given up."""
MAIL_RETRIES = (60.0, 300.0, 1800.0)
"""Seconds before each new try of an email whose sending failed for a reason that may pass:
four tries over about 36 minutes (a mail server's restart, a greylisting 4xx answer)."""
SCHEMES = {"smtp": 587, "smtps": 465, "smtp+insecure": 25}
"""The URL schemes and their default ports: ``smtp`` always upgrades with STARTTLS (a server
that does not offer it is refused, so a password never crosses the network in clear),
``smtps`` is TLS from the start, ``smtp+insecure`` is neither (a relay on the same machine)."""
TITLES = {"tauceti": "Tau Ceti", "ceres": "Ceres"}


class MailConfigError(ValueError):
    """The SMTP settings cannot work; the message says which and why."""


class MailIncomplete(MailConfigError):
    """A setting email needs is not given: email is off (the start-up line says so), the server runs."""


@dataclass(frozen=True)
class MailSettings:
    """The host's email settings. ``repr`` hides the password (it is in ``smtp_url``)."""

    smtp_url: str
    sender: str
    public_url: str
    delay: float = MAIL_DELAY
    timeout: float = MAIL_TIMEOUT
    per_hour: int = MAIL_PER_HOUR
    retries: tuple[float, ...] = MAIL_RETRIES

    def __repr__(self) -> str:
        return f"MailSettings({self.describe()!r}, sender={self.sender!r}, public_url={self.public_url!r})"

    @classmethod
    def parse(cls, smtp_url: str, sender: str | None, public_url: str | None, *,
              delay: float = MAIL_DELAY, timeout: float = MAIL_TIMEOUT,
              per_hour: int = MAIL_PER_HOUR) -> MailSettings:
        """Checked settings, or :class:`MailConfigError` naming what is wrong (never the password)."""
        parts = urlsplit(smtp_url)
        if parts.scheme not in SCHEMES:
            raise MailConfigError(f"the SMTP URL must start with {', '.join(s + '://' for s in SCHEMES)}, "
                                  f"not {parts.scheme + '://' if parts.scheme else 'nothing'}")
        try:
            port = parts.port  # (a port that is no number, or over 65535, raises here)
        except ValueError:
            port = -1
        if port is not None and not 1 <= port <= 65535:  # (0 would quietly be the scheme's default)
            raise MailConfigError("the SMTP URL's port is not a number from 1 to 65535")
        if not parts.hostname:
            raise MailConfigError("the SMTP URL names no host (smtp://user:password@mail.example.org:587)")
        if not sender:
            raise MailIncomplete("emails need a sender address (--mail-from or $ECLIPTIC_MAIL_FROM)")
        try:
            MailRequest(address=sender)
        except ValueError:
            raise MailConfigError(f"the sender {sender!r} is not an email address") from None
        if not public_url:
            raise MailIncomplete("emails need the address people reach the pages at, for their link "
                                  "(--public-url or $ECLIPTIC_PUBLIC_URL, e.g. https://games.example.org)")
        public = urlsplit(public_url)
        if public.scheme not in ("http", "https") or not public.hostname:
            raise MailConfigError(f"the public URL must be http(s)://host[/path], not {public_url!r}")
        if public.username is not None or public.password is not None:
            # (every email would carry it: an email is no place for a secret)
            raise MailConfigError("the public URL must name no user or password: every email's link holds it")
        if public.query or public.fragment or public_url.rstrip("/").endswith(("?", "#")):
            raise MailConfigError(f"the public URL must be http(s)://host[/path], with no ?query or #fragment "
                                  f"(the game's path /play/ID goes after it), not {public_url!r}")
        return cls(smtp_url, sender, public_url.rstrip("/"), delay=delay, timeout=timeout, per_hour=per_hour)

    def describe(self) -> str:
        """The SMTP server for the start-up line, without user or password."""
        parts = urlsplit(self.smtp_url)
        return f"{parts.scheme}://{parts.hostname}:{parts.port or SCHEMES[parts.scheme]}"

    def connect(self) -> smtplib.SMTP:
        """An SMTP session, upgraded to TLS as the scheme says and logged in when the URL has a user."""
        parts = urlsplit(self.smtp_url)
        host, port = parts.hostname or "", parts.port or SCHEMES[parts.scheme]
        context = ssl.create_default_context()
        session: smtplib.SMTP
        if parts.scheme == "smtps":
            session = smtplib.SMTP_SSL(host, port, timeout=self.timeout, context=context)
        else:
            session = smtplib.SMTP(host, port, timeout=self.timeout)
            if parts.scheme == "smtp":
                session.starttls(context=context)  # (refused by smtplib when the server does not offer it)
        if parts.username:
            session.login(unquote(parts.username), unquote(parts.password or ""))
        return session


def game_link(settings: MailSettings, game_id: str) -> str:
    """The game page, without a token: the browser that holds the seat's token finds it there."""
    return f"{settings.public_url}/play/{game_id}"


def unsubscribe_link(settings: MailSettings, token: str) -> str:
    """The page that stops every email of this server to the address one email went to."""
    return f"{settings.public_url}/mail/unsubscribe/{token}"


FOOTER = ("Open the link in the browser you play this game in: that browser keeps your seat's token and "
          "the page finds it. (The link has no token, so whoever else reads this email can only watch.)\n\n"
          "You get this email because you, or someone who typed your address, asked for it on a game's "
          "page. To stop these emails for this game, open it and press \"Stop emailing me\" under "
          "\"Email me when it is my turn\". To get no more email from this server at all, for any game:\n"
          "{unsubscribe}\n")


def turn_message(settings: MailSettings, *, game: str, game_id: str, seat_name: str, to: str,
                 waiting_since: str, unsubscribe: str) -> EmailMessage:
    """The email that tells a seat it is its turn (``unsubscribe``: its link's token)."""
    title = TITLES.get(game, game)
    link = game_link(settings, game_id)
    body = (f"Hello {seat_name},\n\nIt is your turn in your game of {title} ({waiting_since}).\n\n"
            f"Play it here: {link}\n\n{_footer(settings, unsubscribe)}")
    return _message(settings, to, f"Your turn in {title} (game {game_id})", body, unsubscribe)


def over_message(settings: MailSettings, *, game: str, game_id: str, seat_name: str, to: str,
                 results: Sequence[str], unsubscribe: str) -> EmailMessage:
    """The email that tells a seat the game is over, with its results."""
    title = TITLES.get(game, game)
    link = game_link(settings, game_id)
    lines = "".join(f"  {line}\n" for line in results)
    body = (f"Hello {seat_name},\n\nYour game of {title} is over. The results:\n\n{lines}\n"
            f"The score sheet and the replay: {link}\n\n{_footer(settings, unsubscribe)}")
    return _message(settings, to, f"The game is over: {title} (game {game_id})", body, unsubscribe)


def _footer(settings: MailSettings, unsubscribe: str) -> str:
    return FOOTER.format(unsubscribe=unsubscribe_link(settings, unsubscribe))


HEADERS = email.policy.default.clone(max_line_length=998)
"""Headers folded at RFC 5322's limit, not at 78: a ``List-Unsubscribe`` URL is one word longer than
78 characters, which the default policy would write as an RFC 2047 encoded word no client reads."""


def _message(settings: MailSettings, to: str, subject: str, body: str, unsubscribe: str) -> EmailMessage:
    message = EmailMessage(policy=HEADERS)
    message["From"] = settings.sender
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = formatdate(localtime=False)
    message["Message-ID"] = make_msgid(domain=settings.sender.rpartition("@")[2])
    message["Auto-Submitted"] = "auto-generated"  # (RFC 3834: no vacation replies to a robot)
    # RFC 8058: the mail client's own "Unsubscribe" button POSTs to the link, no page to read.
    message["List-Unsubscribe"] = f"<{unsubscribe_link(settings, unsubscribe)}>"
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message.set_content(body)
    return message


class Sent(Enum):
    """What became of one try at sending an email."""

    SENT = "sent"
    AGAIN = "failed for a reason that may pass: worth another try"
    REFUSED = "refused: another try would be refused too"


def passing(exc: BaseException) -> bool:
    """Whether a failure to send may pass: the network or the server away, or a 4xx answer
    (RFC 5321's transient failures). A 5xx answer is permanent (no such mailbox, a wrong
    password), and so is a server without the STARTTLS the ``smtp://`` scheme needs."""
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        return all(400 <= code < 500 for code, _ in exc.recipients.values())
    if isinstance(exc, smtplib.SMTPResponseException):
        return 400 <= exc.smtp_code < 500
    if isinstance(exc, smtplib.SMTPNotSupportedError | ssl.SSLCertVerificationError):
        return False
    return isinstance(exc, OSError)  # refused or lost connections, timeouts, a disconnect mid-way


class Mailer:
    """Sends the emails of :class:`MailSettings`, one SMTP session each, off the event loop."""

    def __init__(self, settings: MailSettings) -> None:
        self.settings = settings

    async def send(self, message: EmailMessage, what: str, again_in: float | None = None) -> Sent:
        """Send ``message`` (``what``: which seat of which game, for the log; ``again_in``: the
        seconds to the next try, if there is one). A failure is logged at WARNING with its
        reason and whether it will be tried again, and otherwise ignored: it never reaches a game."""
        try:
            await asyncio.to_thread(self._send, message)
        except Exception as exc:  # any failure of the mail server or the network: the game goes on
            again = passing(exc)
            if again and again_in is not None:
                then = f"; it is tried again in {again_in:g} s"
            elif again:
                then = "; it is not tried again (the last try)"
            else:
                then = "; it is not tried again (the mail server refused it)"
            log.warning("the email to %s was not sent (%s): %s: %s%s", what, self.settings.describe(),
                        type(exc).__name__, exc, then)
            return Sent.AGAIN if again else Sent.REFUSED
        log.info("emailed %s", what)
        return Sent.SENT

    def _send(self, message: EmailMessage) -> None:
        with self.settings.connect() as session:
            session.send_message(message)
