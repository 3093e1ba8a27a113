"""The line rules and class/id words in the languages the stoplists hold (worker.clean.lang), one test per
rule and language family: Germanic (de, nl, sv), Romance (fr, es, it, pt), Slavic (pl, ru).

Each line is one a site in that language prints where an English site prints the rule's English line; each
test fails without the rule's alternatives in that family's languages.
"""

from __future__ import annotations

import re

import pytest

from tests.unit.cleankit import PROSE, PROSE2, seg_of
from worker.clean import classify as classify_mod
from worker.clean import heuristics as h
from worker.clean import idents
from worker.clean.classify import Candidates
from worker.clean.idents import classify_ident, flags_of
from worker.clean.options import CleanOptions
from worker.clean.pipeline import clean_page
from worker.clean.score import score
from worker.models import Page

FAMILIES = ("germanic", "romance", "slavic")


def _family(lines: dict[str, list[str]]) -> pytest.MarkDecorator:
    return pytest.mark.parametrize("lines", [lines[f] for f in FAMILIES], ids=FAMILIES)


@_family(
    {
        "germanic": ["Teilen", "Artikel drucken", "Weiterlesen", "Mehr zum Thema", "Ähnliche Artikel",
                     "3 Kommentare", "Kommentar schreiben", "Nach oben", "Delen", "Lees meer", "Läs mer",
                     "Annons", "Advertentie"],
        "romance": ["Partager", "Imprimer", "Lire aussi", "À lire aussi", "Compartir", "Leer más",
                    "Condividi", "Leggi anche", "Compartilhar", "Leia mais", "Publicidade", "5 commenti"],
        "slavic": ["Udostępnij", "Czytaj także", "Zobacz też", "Komentarze", "Поделиться", "Читайте также",
                   "Реклама"],
    }
)  # fmt: skip
def test_boilerplate_lines(lines: list[str]) -> None:
    # rule: BOILERPLATE_LINE
    for line in lines:
        assert classify_mod._boilerplate_line(line), line


def test_boilerplate_lines_are_whole_lines_only() -> None:
    for line in ("Teilen Sie uns Ihre Meinung mit.", "Lire aussi le rapport complet", "Delen van de stad"):
        assert not classify_mod._boilerplate_line(line), line


@pytest.mark.parametrize(
    ("ident", "expected"),
    [
        ("teilen-leiste", (True, False, False)),  # strong boilerplate words
        ("werbung-box artikel", (True, False, True)),
        ("partage", (True, False, False)),
        ("bloc-publicite", (True, False, False)),
        ("udostepnij", (True, False, False)),
        ("autor-info", (True, False, False)),  # weak ...
        ("autor-info artikel", (False, False, True)),  # ... unless a content word is there too
        ("kommentare", (False, True, False)),  # comment sections
        ("comentarios", (False, True, False)),
        ("komentarze", (False, True, False)),
        ("artikel-inhalt", (False, False, True)),  # content containers
        ("beitrag", (False, False, True)),
    ],
)
def test_class_id_words(ident: str, expected: tuple[bool, bool, bool]) -> None:
    # rule: STRONG_BAD_PREFIXES, WEAK_BAD_PREFIXES, COMMENT_TOKEN_PREFIXES, GOOD_TOKEN_PREFIXES
    assert classify_ident(ident) == expected


@pytest.mark.parametrize(
    ("cls", "flag"),
    [
        ("bildergalerie", idents.GALLERY),
        ("galeria-zdjec", idents.GALLERY),
        ("galleria", idents.GALLERY),
        ("bildtext", idents.CAPTION),
        ("legende", idents.CAPTION),
        ("podpis", idents.CAPTION),
    ],
)
def test_caption_and_gallery_words(cls: str, flag: int) -> None:
    # rule: CAPTION_PREFIXES, GALLERY_PREFIXES
    assert flags_of(cls, "") & flag
    assert idents.ident_flags([cls], [""])[0] & flag


@_family(
    {
        "germanic": ["Mehr zum Thema", "Das könnte Sie auch interessieren", "Lesen Sie auch", "Lees ook",
                     "Läs också"],
        "romance": ["Lire aussi", "Sur le même sujet", "Noticias relacionadas", "Leggi anche", "Leia também"],
        "slavic": ["Czytaj także", "Podobne artykuły", "Читайте также"],
    }
)  # fmt: skip
def test_a_box_of_related_posts_ending_the_text(lines: list[str]) -> None:
    # rule: TAIL_HEADING
    _assert_heading_ends_the_text(lines, "Ein anderer Artikel der Seite", "list_item")


def _assert_heading_ends_the_text(headings: list[str], after: str, kind: str) -> None:
    """without_sign_off drops each of `headings` after two paragraphs, with the block (`after`, of `kind`)
    after it."""
    kinds = ["paragraph", "paragraph", "heading", kind]
    for heading in headings:
        texts = [PROSE, PROSE2, heading, after]
        assert classify_mod.without_sign_off(texts, kinds, [0, 1, 2, 3]) == [0, 1], heading


@_family(
    {
        "germanic": ["Über den Autor", "Über die Autorin", "Over de auteur", "Om författaren"],
        "romance": ["À propos de l’auteur", "Sobre el autor", "Sull'autore", "Sobre o autor"],
        "slavic": ["O autorze", "Об авторе"],
    }
)  # fmt: skip
def test_the_authors_box_ending_the_text(lines: list[str]) -> None:
    # rule: AUTHOR_HEADING
    _assert_heading_ends_the_text(
        lines, "Jane Doe schreibt seit 2004 über Technik und Wissenschaft.", "paragraph"
    )


@_family(
    {
        "germanic": ["Leserkommentare", "Ihre Meinung", "Plaats een reactie", "Lämna en kommentar"],
        "romance": ["Laisser un commentaire", "Deja un comentario", "Lascia un commento",
                    "Deixe um comentário"],
        "slavic": ["Dodaj komentarz", "Оставить комментарий"],
    }
)  # fmt: skip
def test_comment_headings(lines: list[str]) -> None:
    # rule: COMMENT_HEADING
    for line in lines:
        assert classify_mod._comment_heading(line), line


@_family(
    {
        "germanic": ["Folgen Sie Jane Doe auf Twitter.", "Jetzt Newsletter abonnieren!",
                     "Zuletzt aktualisiert: 3. Mai 2012", "Veröffentlicht am 3. Mai 2012 von Jane Doe",
                     "Volg ons op Facebook", "Senast uppdaterad 2012-05-03"],
        "romance": ["Suivez Jane Doe sur Twitter", "Abonnez-vous à notre lettre",
                    "Dernière mise à jour : 3 mai",
                    "Publicado el 3 de mayo de 2012", "Iscriviti alla nostra newsletter",
                    "Ultimo aggiornamento: 3 maggio"],
        "slavic": ["Obserwuj nas na Facebook", "Zapisz się na newsletter", "Opublikowano 3 maja 2012",
                   "Подпишитесь на рассылку", "Последнее обновление: 3 мая"],
    }
)  # fmt: skip
def test_trailing_sign_off_lines(lines: list[str]) -> None:
    # rule: SIGN_OFF, SIGN_OFF_CALL, SIGN_OFF_NOTICE, SIGN_OFF_POSTED
    for line in lines:
        assert classify_mod.without_sign_off([PROSE, line], ["paragraph"] * 2, [0, 1]) == [0], line


@_family(
    {
        "germanic": ["Foto: dpa", "Bild: Keystone", "Bildquelle: Getty Images", "Zum Vergrößern klicken",
                     "Zurück 3 von 12 Weiter", "Folgen Sie uns auf Facebook", "Klik om te vergroten"],
        "romance": ["Crédit photo : AFP", "Cliquez pour agrandir", "Précédent 2 sur 9 Suivant",
                    "Síguenos en Twitter", "Clicca per ingrandire"],
        "slavic": ["Zdjęcie: PAP", "Фото: ТАСС", "Kliknij, aby powiększyć", "Poprzednie 2 z 9 Następne"],
    }
)  # fmt: skip
def test_page_furniture(lines: list[str]) -> None:
    # rule: FURNITURE_LINE (with photo credit labels)
    for line in lines:
        assert classify_mod.without_page_lines([PROSE, line], [len(PROSE), len(line)], [0, 1]) == [0], line


def test_photo_labels_hold_no_sentence() -> None:
    caption = "Bild: Der Kanzler spricht. Danach gehen alle nach Hause."
    assert classify_mod.without_page_lines([PROSE, caption], [len(PROSE), len(caption)], [0, 1]) == [0, 1]


@_family(
    {
        "germanic": ["Gesponserte Links", "Anzeigen von Google", "Gesponsorde links", "Sponsrade länkar"],
        "romance": ["Liens sponsorisés", "Enlaces patrocinados", "Link sponsorizzati", "Links patrocinados"],
        "slavic": ["Linki sponsorowane", "Спонсорские ссылки"],
    }
)  # fmt: skip
def test_ad_unit_labels(lines: list[str]) -> None:
    # rule: AD_UNIT_LABEL
    ads = ["Günstige Kredite vergleichen.", "Jetzt Depot eröffnen."]
    kinds = ["paragraph", "paragraph", "list_item", "list_item", "paragraph"]
    for label in lines:
        texts = [PROSE, label, *ads, PROSE2]
        chars = [len(t) for t in texts]
        assert classify_mod.without_page_chrome(texts, kinds, chars, [0, 1, 2, 3, 4]) == [0, 4], label


@_family(
    {
        "germanic": ["Melden", "Zitieren", "Gefällt mir", "3 Antworten", "Beantwoorden", "Svara"],
        "romance": ["Signaler", "Citer", "Me gusta", "Segnala", "2 respostas"],
        "slavic": ["Odpowiedz", "Zgłoś", "Ответить", "5 odpowiedzi"],
    }
)  # fmt: skip
def test_comment_controls(lines: list[str]) -> None:
    # rule: COMMENT_CONTROL
    for line in lines:
        assert h.COMMENT_CONTROL.match(line), line


@_family(
    {
        "germanic": ["12 Kommentare zu „Brücke wieder offen“", "3 reacties", "4 kommentarer"],
        "romance": ["12 commentaires", "7 comentarios", "3 commenti", "2 comentários"],
        "slavic": ["12 komentarzy", "5 комментариев"],
    }
)  # fmt: skip
def test_comment_counts(lines: list[str]) -> None:
    # rule: COMMENT_COUNT
    for line in lines:
        assert h.COMMENT_COUNT.match(line), line


@_family(
    {
        "germanic": ["Lesen Sie auch Die Wahl in Berlin", "Mehr zum Thema Wahlen", "Lees ook het verslag",
                     "Läs mer om valet"],
        "romance": ["Lire aussi le reportage", "Leer más sobre la elección", "Leggi anche il resto",
                    "Leia também a entrevista"],
        "slavic": ["Czytaj także o wyborach", "Читайте также о выборах"],
    }
)  # fmt: skip
def test_cross_links(lines: list[str]) -> None:
    # rule: CROSS_LINK (the block model's additions)
    for line in lines:
        assert h.CROSS_LINK.search(line), line


# --- scripts whose sentences end with other marks (no stoplist for them: length and punctuation decide) ---
# Hindi and Bengali prose ending its sentences with the danda alone (no comma, colon or full stop), and an
# Arabic/Urdu one with only its own question mark, comma and full stop.
HI_PROSE = (
    "दिल्ली में आज सुबह से तेज बारिश हो रही है। मौसम विभाग ने बताया कि अगले तीन दिनों तक बारिश जारी रह "
    "सकती है। शहर की कई सड़कों पर पानी भर गया है और यातायात प्रभावित हुआ है।"
)
HI_PROSE2 = (
    "लोगों ने बताया कि सुबह दफ्तर पहुंचने में उन्हें बहुत समय लगा। नगर निगम के अधिकारियों ने कहा कि पानी "
    "निकालने का काम चल रहा है।"
)
HI_PROSE3 = (
    "विशेषज्ञों का मानना है कि अगर शहर की जल निकासी व्यवस्था में सुधार नहीं हुआ तो हर साल यह समस्या और "
    "बढ़ेगी। उन्होंने दीर्घकालिक योजना पर जोर दिया।"
)
BN_PROSE = (
    "ঢাকা শহরে আজ সকাল থেকে ভারী বৃষ্টি হচ্ছে। আবহাওয়া অধিদপ্তর জানিয়েছে যে আগামী তিন দিন এই বৃষ্টি চলতে "
    "পারে। শহরের অনেক রাস্তায় পানি জমে গেছে এবং যানবাহন চলাচলে সমস্যা হচ্ছে।"
)
UR_PROSE = (
    "شہر میں آج صبح سے تیز بارش ہو رہی ہے۔ محکمہ موسمیات نے بتایا کہ اگلے تین دن تک بارش جاری رہ سکتی ہے۔ "
    "کیا شہر کی سڑکوں پر پانی جمع ہو گیا ہے؟"
)
NO_MARK = "दिल्ली मुंबई कोलकाता चेन्नई बेंगलुरु हैदराबाद पुणे अहमदाबाद जयपुर लखनऊ " * 2


@pytest.mark.parametrize("prose", [HI_PROSE, BN_PROSE, UR_PROSE], ids=["hi", "bn", "ur"])
def test_danda_and_arabic_marks_are_sentence_punctuation(prose: str) -> None:
    # rule: SENTENCE_PUNCT / SENTENCE_END hold the danda and the Arabic-script marks
    assert not re.search(r"[.!?。！？;:,]", prose)  # the marks the rule held before
    assert len(prose) >= h.NOSTOP_GOOD_LENGTH
    assert len(NO_MARK) >= h.NOSTOP_GOOD_LENGTH
    blocks = Candidates([prose, NO_MARK], ["paragraph"] * 2, [len(prose), len(NO_MARK)],
                        [len(prose.split()), len(NO_MARK.split())], [0, 0], [0.0, 0.0], [0, 0])  # fmt: skip
    # without a language, a long block with sentence punctuation is good; a name list stays near-good
    assert classify_mod.classify(blocks, None, [False, False]) == [classify_mod.GOOD, classify_mod.NEAR]
    assert prose.endswith(h.SENTENCE_END)
    weights = score(seg_of(f"<p>{prose}</p><p>{NO_MARK}</p>")).weights
    assert weights[0] == pytest.approx(len(prose))  # prose weighs in full, as in any other script
    assert weights[1] == pytest.approx(len(NO_MARK.strip()) * h.NO_PUNCT_WEIGHT)


def test_hindi_article_beside_a_punctuated_about_box() -> None:
    # rule: SENTENCE_PUNCT holds the danda. Without it the article's paragraphs weigh NO_PUNCT_WEIGHT, the
    # side column's "about us" box (one colon) outweighs them and its text joins the article's.
    about = (
        "हमारे बारे में: यह समाचार वेबसाइट देश और दुनिया की ताजा खबरें आपके लिए लाती है और हम निष्पक्ष "
        "पत्रकारिता में विश्वास करते हैं"
    )
    nav = "".join(f'<li><a href="/c{i}">मेनू {i}</a></li>' for i in range(12))
    side = "".join(f'<li><a href="/s{i}">संबंधित खबर {i}</a></li>' for i in range(8))
    html = (
        f'<html><body><div id="header"><ul class="nav">{nav}</ul></div><div id="wrap"><div id="m1">'
        f'<h1>शीर्षक</h1><div class="c1"><p>{HI_PROSE}</p><p>{HI_PROSE2}</p><p>{HI_PROSE3}</p></div></div>'
        f'<div id="m2"><div class="c2"><p>{about}</p><p>{about} २</p></div><ul>{side}</ul></div></div>'
        '<div id="bottom"><p><a href="/a">About</a> <a href="/p">Privacy</a></p></div></body></html>'
    )
    text = clean_page(Page(id="hi", html=html), None, CleanOptions(block_model=False)).text
    assert all(p in text for p in (HI_PROSE, HI_PROSE2, HI_PROSE3))
    assert about not in text


def test_each_stopword_is_looked_up_in_the_lists_that_hold_it() -> None:
    # _LISTS_OF, built list by list: each word of any stoplist -> every list holding it, in LANGS order
    from worker.clean import lang

    every = frozenset().union(*lang.STOPWORDS.values())
    want = {w: tuple(k for k, code in enumerate(lang.LANGS) if w in lang.STOPWORDS[code]) for w in every}
    assert want == lang._LISTS_OF
    assert any(len(lists) > 1 for lists in want.values())  # words that several languages share
