"""Cheap language guess from function words, and the stoplists jusText-style classification needs.

Lists hold the most frequent function words of each language (closed classes: articles, pronouns,
prepositions, conjunctions, auxiliaries). Short on purpose: they only need to separate prose from menus.
"""

from __future__ import annotations

from worker.clean import native

_LISTS: dict[str, str] = {
    "en": """a about above after again against all also am an and any are as at be because been before
        being below between both but by can could did do does doing down during each few for from further had
        has have having he her here hers herself him himself his how i if in into is it its itself just me
        more most my myself no nor not now of off on once only or other our ours ourselves out over own same
        she should so some such than that the their theirs them themselves then there these they this those
        through to too under until up very was we were what when where which while who whom why will with
        would you your yours yourself yourselves""",
    "de": """aber alle allem allen aller alles als also am an ander andere anderem anderen anderer anderes
        auch auf aus bei bin bis bist da damit dann das dass daß dein deine dem den denn der des dessen dich
        die dies diese diesem diesen dieser dieses dir doch dort du durch ein eine einem einen einer eines
        er es etwas euch euer für gegen hab habe haben hat hatte hatten hier hin hinter ich ihm ihn ihnen
        ihr ihre im in indem ins ist jede jedem jeden jeder jedes jetzt kann kein keine können man manche
        mein meine mich mir mit muss musste nach nicht nichts noch nun nur ob oder ohne sehr sein seine
        selbst sich sie sind so solche soll sondern über um und uns unser unter viel vom von vor war waren
        warum was weil welche wenn wer werde werden wie wieder will wir wird wo wollen wurde würde zu zum zur
        zwar zwischen""",
    "fr": """a ai au aux avec avait avoir c ce ces cet cette ceux chez comme d dans de des du elle elles en
        est et être eu fait il ils je l la le les leur leurs lui m ma mais me même mes moi mon n ne nos notre
        nous on ont ou où par pas peu plus pour qu que qui s sa sans se ses si son sont sur t ta te tes toi
        ton tous tout très tu un une vos votre vous y été était sera ont""",
    "es": """a al algo algunos ante antes como con contra cual cuando de del desde donde durante e el ella
        ellas ellos en entre era es esa esas ese eso esos esta estaba estas este esto estos fue fueron ha
        hace hasta hay la las le les lo los más me mi mis mucho muy nada ni no nos o otra otro para pero poco
        por porque que quien se ser si sido sin sobre su sus también tanto te tiene todo todos tu un una uno
        unos y ya yo él está están""",
    "it": """a ad al alla alle agli ai anche che chi ci come con cui da dal dalla dei del della delle dello
        di e è ed essere fra gli ha hanno i il in io la le lei lo loro lui ma mi molto ne nel nella nelle noi
        non o per perché più questa queste questo questi se si sia sono su sua sue suo suoi tra tu un una uno
        voi anche stato stata""",
    "pt": """a ao aos as até com como da das de dela dele do dos e é ela ele eles em entre era essa esse
        esta este eu foi foram há isso isto já la lhe mais mas me mesmo meu minha muito na nas não nem no
        nos nós o os ou para pela pelo por qual quando que quem se sem ser seu sua são também te tem um uma
        você está estão""",
    "nl": """aan al als bij dan dat de der deze die dit doch door een en er ge geen had heb hebben heeft
        hem het hier hij hoe hun ik in is ja je kan kon maar me meer men met mij mijn na naar niet niets nog
        nu of om omdat ons ook op over reeds te tegen toch toen tot u uit van veel voor want waren was wat we
        wel werd wezen wie wij wil worden zal ze zei zelf zich zij zijn zo zonder zou""",
    "pl": """a aby ale bez bo być był była było były co czy dla do gdy go i ich ja jak jako je jego jej
        jest jeszcze jednak już ma mi może na nad nas nie nich nim niż o od po pod przez przy się są ta tak
        także te tego tej ten to tu tylko tym w we więc z za ze że został""",
    "ru": """а без более бы был была были было быть в вам вас весь во вот все всего всех вы где да даже для
        до его ее если есть еще же за здесь и из или им их к как ко когда кто ли либо мне может мы на надо
        наш не него нее нет ни них но ну о об однако он она они оно от очень по под при с со так также такой
        там те тем то того тоже той только том ты у уже хотя чего чей чем что чтобы чье чья эта эти это я""",
    "sv": """alla allt att av blev bli blir de dem den denna deras dess det detta dig din du där efter ej
        eller en er ett från för ha hade han hans har henne hon honom hur här i icke ingen inom inte jag ju
        kan kunde man med mellan men mig min mot mycket ni nu när någon något och om oss på samma sedan sig
        sin sina själv skulle som så till under upp ut utan vad var vara varit vi vid än är över""",
}  # fmt: skip

STOPWORDS: dict[str, frozenset[str]] = {lang: frozenset(words.split()) for lang, words in _LISTS.items()}

# A language is accepted only if its function words make up this share of all words (prose ~0.35-0.5).
# Scaled by the stoplist's coverage as heuristics.STOPWORD_GOOD_SHARE is (both ways or down only), no page
# of any shared set changes its language (the pages refused are English, Spanish, Dutch or German ones, or
# too short): not kept.
MIN_SHARE = 0.15
# Below this many words the guess is noise.
MIN_WORDS = 30


# Every stopword, and for each the stoplists (by position in LANGS) that hold it: a word is looked up once
# instead of in every list.
LANGS = tuple(STOPWORDS)


def _lists_of() -> dict[str, tuple[int, ...]]:
    # list by list, in LANGS order (each word looked up in every list: 4 million instructions of start-up)
    lists_of: dict[str, tuple[int, ...]] = {}
    for i, lang in enumerate(LANGS):
        for w in STOPWORDS[lang]:
            lists_of[w] = (*lists_of.get(w, ()), i)
    return lists_of


_LISTS_OF = _lists_of()


def stop_hits_python(texts: list[str]) -> tuple[list[int], list[int]]:
    """Per text, its count of lower-cased whitespace-separated tokens, and how many of them each stoplist
    holds: hits[i * len(LANGS) + k] for text i and the k-th language of LANGS."""
    n = len(LANGS)
    tokens: list[int] = []
    hits = [0] * (n * len(texts))
    lists_of = _LISTS_OF
    for i, text in enumerate(texts):
        words = text.lower().split()
        tokens.append(len(words))
        for w in words:
            for k in lists_of.get(w, ()):
                hits[i * n + k] += 1
    return tokens, hits


def detect(hits: list[int], total: int) -> str | None:
    """The language whose stoplist holds the most of `total` words (`hits`: per language of LANGS), None
    when no stoplist fits well enough."""
    if total < MIN_WORDS:
        return None
    best, best_hits = None, 0
    for lang, lang_hits in zip(LANGS, hits, strict=True):
        if lang_hits > best_hits:  # strictly more: on a tie the earlier list wins
            best, best_hits = lang, lang_hits
    if best is None or best_hits < MIN_SHARE * total:
        return None
    return best


# The counts in C (worker/clean/_native.c) when native.py has checked them against stop_hits_python.
stop_hits = native.stop_hitter(_LISTS_OF, len(LANGS), stop_hits_python)
