"""Ken il Guerriero: every rule of the rulebook (ken-il-guerriero.it.md) as the project knows it.

Ids are KEN-<section>-<n>; `quote` is the rulebook's own Italian. KEN-T-n are the tool's own
(table facts, not the rulebook's); KEN-TEMPO-1 is our end-of-time policy (the book has none).
"""
from __future__ import annotations

from ..findings import Rule

C, R, NA = "checked", "recorded", "n/a"
DERIVED = "applied by replay (derived from the recorded facts), so there is nothing to flag"
EFFECT = "card effects are not simulated: the visible result is recorded by the event that did it, naming the effect"

RULES = (
    # --- IL PIANO DI GIOCO -------------------------------------------------------------------
    Rule("KEN-TAVOLO-1", "Il piano di gioco", "The table: Future, Past and Present", R,
         "Il FUTURO è il mazzo da cui il giocatore pescherà le proprie carte durante la partita. Il PASSATO contiene "
         "quelle carte che sono state scartate durante il gioco.",
         "zones future, past, removed (Tolte dal gioco); the Present is forces, territory, destiny, assigned"),
    Rule("KEN-TAVOLO-2", "Il piano di gioco", "After searching, the Future is reshuffled", R,
         "Può capitare di dover cercare delle carte in questi mazzi, dopo averlo fatto è necessario rimescolare il mazzo del FUTURO.",
         "recorded with `shuffle`; the Future's order is not known to the recorder"),
    Rule("KEN-TAVOLO-3", "Il piano di gioco", "Locations in a row: the last played is the Frontier", R,
         "vengono messi in fila, in ordine determinato dalla sequenza di giocata: il primo Luogo più in basso (più vicino "
         "al giocatore) e così via, con l'ultimo più in alto (più vicino all'avversario). Il Luogo più in alto è la Frontiera.",
         "the territory zone keeps play order (top = Frontier); KEN-COMB-2 checks attacks against it"),
    Rule("KEN-TAVOLO-4", "Il piano di gioco", "Forces in play: no arrangement rule", NA,
         "non c'è nessuna regola su come disporre in questa area le carte Maestro, Personaggio ed Esercito",
         "nothing to check"),
    # --- LA CARTA -----------------------------------------------------------------------------
    Rule("KEN-CARTA-1", "La carta", "Name and Type make a card's identity", R,
         "Nome e Tipo sono presenti su tutte le carte e determinano l'unicità della carta, cioè una carta è sempre "
         "considerata uguale ad un'altra se possiede lo stesso Nome e Tipo",
         "the definition of “same card” used by KEN-MAZZO-1, KEN-UNICA-1, KEN-EQUIP-3 and KEN-VITA-1"),
    Rule("KEN-SCUOLA-1", "I simboli di Scuola", "Cards of a School and cards Not of a School", R,
         "In alcune carte può comparire il Simbolo di Scuola in questo caso sono chiamate carte “di Scuola”, quelle che "
         "invece non riportano tale simbolo sono chiamate “Non di Scuola”.",
         "a definition: the `schools` fact, used by the assignment, group, play and defence checks"),
    Rule("KEN-MORALE-1", "Il colore della carta", "Morale by colour: red Evil, blue Good, grey Neutral; two colours = both", R,
         "L’Allineamento Morale di una carta è indicato dal colore dello sfondo della stessa [...] Alcune carte possono "
         "avere 2 colori e sono contemporaneamente di entrambe le morali.",
         "a definition: the `morale` fact, used by the assignment, group, play and defence checks"),
    # --- LA VITA ------------------------------------------------------------------------------
    Rule("KEN-VITA-1", "La Vita", "A second Life of a Master/Character in play is placed on it", C,
         "un giocatore quando si trova contemporaneamente in gioco, nell’area delle Forze in Gioco, e in mano, una carta "
         "Maestro o Personaggio con Vita e vuole giocare la carta che ha in mano la deve porre sopra a quella che ha già in gioco"),
    Rule("KEN-VITA-2", "La Vita", "Only the top Life card's values, School, Morale, abilities and green points count", R,
         "I Valori, le Capacità Speciali, etc. valide per tutto il Maestro o Personaggio con Vita saranno quelli della "
         "carta che porrete sopra a tutte le altre",
         "derived: the top card’s values feed the damage and green-point derivations; a wrong count is flagged by KEN-ORDINE-1 or KEN-DANNI-2"),
    Rule("KEN-VITA-3", "La Vita", "When the top Life card may be chosen", C,
         "la scelta di quale carta con Vita avere sopra tutte le altre [...] lo potete decidere ogni volta che giocate una "
         "nuova Vita o durante la Fase di Giocata o all'inizio di ogni combattimento"),
    Rule("KEN-VITA-4", "La Vita", "Each discarded Life gives its own Order points", R,
         "Nel caso si dovesse scartare più di una Vita, ciascuna contribuisce per il proprio valore di Punti Ordine.",
         "derived when Lives are lost; a wrong Order-point count is flagged by KEN-OCRA-1"),
    Rule("KEN-VITA-5", "La Vita", "A Life absorbs any amount of damage", C,
         "Una Vita è in grado di assorbire un numero infinito di danni e quindi scartando la carta che la possiede si sono "
         "soddisfatti tutti i danni inflitti dall'avversario."),
    Rule("KEN-VITA-6", "La Vita", "Several Lives act as one card", R,
         "Quando un Maestro o un Personaggio possiede più Vite in gioco é considerato un tutto unico e le sue carte devono "
         "agire assieme, come se fossero una unica carta.",
         "the Lives share one card id (the unit) in groups and damage"),
    Rule("KEN-VITA-7", "La Vita", "Activation requirements: Life drops or School symbols", C,
         "Nel primo caso, “gocce di vita”, bastano le Vite generiche di qualunque Maestro o Personaggio per attivare la "
         "Capacità Speciale. Nel secondo caso, Simboli di Scuola, serve che il Maestro o Personaggio sia specificatamente "
         "anche della stessa Scuola della carta che vuole attivare"),
    Rule("KEN-OPZ-1", "Le carte Maestro: Regola Opzionale 1", "Optional: one player only may own a given Life Protagonist", C,
         "Nel caso che due giocatori abbiano formato i propri mazzi inserendovi lo stesso Maestro o Personaggio con Vita, "
         "solo uno di essi può possederlo nel proprio Presente.",
         "checked when the option optional_rule_1 is on (the book makes it optional)"),
    # --- PROTAGONISTI -------------------------------------------------------------------------
    Rule("KEN-PROT-1", "Le carte Maestro / Personaggio / Esercito", "Protagonists are played only in one's own Presentation phase", C,
         "Un Maestro può essere giocato solo nella propria fase di Presentazione, le Capacità Speciali di alcune carte "
         "possono influenzare questa regola."),
    Rule("KEN-MAESTRO-1", "Le carte Maestro", "Masters take only assignables of their School or of no School", R,
         "I Maestri possono appartenere ad una o, in rare eccezioni, più Scuole e pertanto gli si possono assegnare solo "
         "carte della stessa Scuola o Senza Simboli di Scuola.",
         "the same check as KEN-ASSEGN-3"),
    Rule("KEN-PERS-1", "Le carte Personaggio", "A Character with numeric Resistance is vanquished by damage at least equal to it", R,
         "I Personaggi che possiedono un valore numerico di Resistenza vengono vinti quando subiscono danni uguali o "
         "superiori alla propria Resistenza",
         "the same check as KEN-DANNI-2 and KEN-DANNI-3"),
    Rule("KEN-PERS-2", "Le carte Personaggio", "Mortale/Massacratore: each Life of a Character is worth 1 Resistance", C,
         "nel caso in cui l'avversario attivi la Capacità Speciale Mortale o Massacratore, in questo caso le Vite dei "
         "Personaggi valgono ciascuna 1 di Resistenza e se ne perderanno tante quanti i danni subiti che superano la Difesa."),
    Rule("KEN-ESERCITO-1", "Le carte Esercito", "An Army is played with an Inhabited Location", C,
         "Una carta Esercito deve essere giocata sempre assieme ad una carta Luogo che abbia la dicitura Luogo Abitato, "
         "tranne che per quelle carte Esercito le cui capacità speciali permettono un diverso modo di entrare in gioco."),
    Rule("KEN-ESERCITO-2", "Le carte Esercito", "Army abilities with symbols need a Master's Lives at command", R,
         "Le Capacità Speciali di un Esercito sono sempre attivabili o, se sono presenti i simbolini di Scuola, sono "
         "necessarie un numero pari di Vite di un Maestro al comando per attivarle",
         "the check is KEN-ABIL-2"),
    # --- LUOGHI -------------------------------------------------------------------------------
    Rule("KEN-LUOGO-1", "Le carte Luogo", "An Uninhabited Location: own Presentation phase, no pairing", C,
         "Un Luogo Disabilitato può essere giocato solo durante la propria Fase di Presentazione e, salvo diversamente "
         "indicato sulla carta stessa, non ha limitazioni o combinazioni di gioco da rispettare per questa cosa."),
    Rule("KEN-LUOGO-2", "Le carte Luogo", "An Inhabited Location and an Army enter play together", C,
         "Un Luogo Abitato ed un Esercito devono sempre entrare in gioco assieme durante la propria Fase di Presentazione"),
    Rule("KEN-LUOGO-3", "Le carte Luogo", "School Inhabited Locations only with Armies of that School", C,
         "Simbolo di Scuola: i Luoghi Abitati di Scuola possono essere giocati solo assieme ad Eserciti di quella stessa Scuola."),
    Rule("KEN-LUOGO-4", "Le carte Luogo / Riepilogo", "Morale pairing of Location and Army", C,
         "GIOCATA DI LUOGHI ED ESERCITI - MORALE: Luogo Rosso: Esercito Rosso e Grigio; Luogo Blu: Esercito Blu e Grigio; "
         "Luogo Grigio: Esercito Grigio e Rosso e Blu"),
    Rule("KEN-LUOGO-5", "Regole per il combattimento", "No limitation on attacking Locations", NA,
         "Non ci sono limitazioni quando si attaccano Luoghi dell'avversario.", "nothing to check (the order is KEN-COMB-2)"),
    Rule("KEN-LUOGO-6", "Regola per la DIFESA dei Luoghi", "School Locations are defended only by that School", C,
         "i Luoghi di Scuola possono essere difesi solo da Protagonisti della stessa Scuola, in assenza di Simboli di Scuola "
         "sul Luogo questi può essere difeso sia da Protagonisti Non di Scuola sia da quelli di Scuola."),
    Rule("KEN-LUOGO-7", "Regola per la DIFESA dei Luoghi", "Red Locations by red, blue by blue, grey by all", C,
         "Luogo Malvagio, rosso, solo da Protagonisti Malvagi, rossi. Luogo Buono, blu, solo da Protagonisti Buoni, blu. "
         "Luogo Neutrale, grigio, da tutti i Protagonisti indipendentemente dalla morale, colore."),
    Rule("KEN-LUOGO-8", "Regola per quando NON SI HANNO Luoghi in gioco", "Without Locations the player's Protagonists are hunted", R,
         "Quando un giocatore non ha più Luoghi significa che l'intero mondo da lui conosciuto è in mano ai nemici, che "
         "quindi possono braccarlo come pare a loro",
         "the check is KEN-COMB-4"),
    # --- ASSEGNAZIONE -------------------------------------------------------------------------
    Rule("KEN-ASSEGN-1", "Regole dell'assegnazione", "Assignment Icon: only onto the types it names", C,
         "Icona di assegnazione: nel quadrato sono indicate le iniziali delle lettere dei Protagonisti o Luoghi a cui può "
         "essere assegnata (M = Maestro, P = Personaggio, E = Esercito, L = Luogo)."),
    Rule("KEN-ASSEGN-2", "Regole dell'assegnazione", "Red only on red, blue only on blue, grey on all, bicolour on either", C,
         "Rosso solo su Rosse - Blu solo su Blu - Grigie su tutti i colori (Blu o Rosso o Grigio) - Bicolore "
         "indifferentemente su uno dei colori"),
    Rule("KEN-ASSEGN-3", "Regole dell'assegnazione", "A School card only onto a card of that School", C,
         "Una carta di Scuola può solo essere assegnata solo a una della stessa Scuola. Una carta Non di Scuola può essere "
         "assegnata a qualunque carta"),
    Rule("KEN-ASSEGN-4", "Regole dell'assegnazione", "Profile rule (optional): a Profile only onto the same Profile", C,
         "Regola del Profilo: (opzionale) [...] Un Profilo è assegnabile solo sullo stesso Profilo. Nessun Profilo è "
         "assegnabile a tutte le carte Protagonista o Luogo (salvo diversamente indicato sulla carta stessa)",
         "checked when the option profile_rule is on (the book makes it optional)"),
    Rule("KEN-ASSEGN-5", "La fase di Presentazione", "Assignables only if their card is in the Present", C,
         "Le carte da assegnare, Tecnica, Spirito, Equipaggiamento e Speciale possono essere giocate solo se esiste nel "
         "Presente la carta alla quale possono essere assegnate."),
    Rule("KEN-ASSEGN-6", "Regole dell'assegnazione", "Printed Limitations of an assignment", R,
         "Le Carte da Assegnare possono avere delle Capacità Speciali o delle Limitazioni che sono legate alla specifica "
         "assegnazione di un preciso Protagonista o Luogo, altrimenti non si attivano o non sono utilizzabili.",
         "a card's own text; " + EFFECT),
    # --- TECNICA / SPIRITO / EQUIPAGGIAMENTO / SPECIALE -----------------------------------------
    Rule("KEN-TECNICA-1", "Le carte Tecnica / Spirito", "Per card: 1 PERMANENTE, 1 PUNTATA, 1 GIOCA E SCARTA Technique (Spirit)", C,
         "PERMANENTE: 1 sola carta Tecnica, deve essere assegnata nella propria Fase di Presentazione. GIOCA E SCARTA O "
         "GIOCA E TOGLI: 1 sola carta Tecnica, deve essere assegnata durante il Combattimento. [...] PUNTATA: 1 sola carta Tecnica"),
    Rule("KEN-TECNICA-2", "Le carte Tecnica / Spirito / Equipaggiamento / Speciale", "When assignables are assigned", C,
         "PERMANENTE [...] SCARTARE DOPO L'USO [...] TOGLIERE DOPO L'USO [...] PUNTATA [...] devono essere assegnate nella "
         "propria Fase di Presentazione. GIOCA E SCARTA O GIOCA E TOGLI [...] deve essere assegnata durante il Combattimento."),
    Rule("KEN-TECNICA-3", "La fase di Combattimento", "One Technique and one Spirit per Protagonist per combat", C,
         "Un protagonista può usare una sola carta Tecnica ed una sola carta Spirito per combattimento, sommandole"),
    Rule("KEN-TECNICA-4", "Le carte Tecnica", "With the last Life the assigned Technique goes to the Past", R,
         "quando l'ultima carta Protagonista, nel caso questi abbia la Vita, viene eliminata anche la carta Tecnica a lui "
         "assegnata viene eliminata e messa nel Passato.", DERIVED),
    Rule("KEN-TECNICA-5", "Le carte Tecnica", "GIOCA E SCARTA / GIOCA E TOGLI cards leave after damage", R,
         "Le carte Tecnica GIOCA E SCARTA e le GIOCA E TOGLI DAL GIOCO finiscono nel Passato, o Tolta dal gioco, dopo aver "
         "assegnato i danni.", DERIVED),
    Rule("KEN-EQUIP-1", "Le carte Equipaggiamento", "Assigned cards share their card's fate", R,
         "Quando la carta a cui è stato assegnato un Equipaggiamento viene Vinta o Tolta dal Gioco o Scartata, anche "
         "l'Equipaggiamento subisce lo stesso destino.", DERIVED),
    Rule("KEN-EQUIP-2", "Le carte Equipaggiamento", "Equipment adds its values to its card", R,
         "Gli Equipaggiamenti sommano il loro valore e le loro Capacità Speciali a quelli del Protagonista o del Luogo a "
         "cui sono stati assegnati.",
         "derived into a group’s printed Attack, Defence, Resistance; the damage total is flagged by KEN-DANNI-1"),
    Rule("KEN-EQUIP-3", "Le carte Equipaggiamento / Speciali", "Two equal assignables are not summed unless Cumulabile", C,
         "sempre rispettando la regola che due carte uguali, cioè con lo stesso Nome e Tipo, non possono essere sommate se "
         "non c'è scritto Cumulabile nella Capacità Speciale."),
    # --- EVENTI -------------------------------------------------------------------------------
    Rule("KEN-EVENTO-1", "Le carte Evento", "When an Event may be played, by its DURATA", C,
         "AVVENIMENTO: Fase di Presentazione (propria); GIOCA E SCARTA: In qualunque momento; PERMANENTE: Fase di "
         "Presentazione (propria); PUNTATA: Fase di Presentazione (propria o avversaria); SCARTARE DOPO L'USO: Fase di "
         "Presentazione (propria)"),
    Rule("KEN-EVENTO-2", "Le carte Evento", "No limit to Events; equal ones are not cumulated", R,
         "Non ci sono limiti. Due carte uguali, cioè con lo stesso Nome e Tipo, non possono essere cumulate se non c'è "
         "scritto Cumulabile.", EFFECT),
    Rule("KEN-EVENTO-3", "Le carte Evento", "How long Events stay", R,
         "PERMANENTE: rimane per sempre in gioco [...] PUNTATA rimane in gioco e vale sino al termine del Turno di Gioco", DERIVED),
    Rule("KEN-EVENTO-4", "Le carte Evento", "A PERMANENTE Event's ability once per turn", R,
         "la sua Capacità Speciale può essere attivata una sola volta per Turno di gioco", EFFECT),
    # --- LA SCENEGGIATURA ---------------------------------------------------------------------
    Rule("KEN-MAZZO-1", "La creazione del mazzo", "At most 5 cards with the same Name and Type (MAX +/- # changes it)", C,
         "Nel mazzo del Futuro non ci possono essere più di 5 carte uguali, cioè con lo stesso Nome e dello stesso Tipo"),
    Rule("KEN-MAZZO-2", "La creazione del mazzo", "No limit for Masters and Characters with Life", C,
         "fanno eccezione a questa regola tutte le carte Maestro e le carte Personaggio con Vita che non hanno nessun limite"),
    Rule("KEN-MAZZO-3", "La creazione del mazzo", "At most a quarter of the deck Locations", C,
         "e infine non più di 1/4 del mazzo può essere composto da carte Luogo"),
    Rule("KEN-MAZZO-4", "La creazione del mazzo", "Carta Unica is no exception", C,
         "La frase Carta Unica sulla carta non comporta eccezioni."),
    Rule("KEN-MAZZO-5", "La creazione del mazzo", "Quick game: 15 cards", C,
         "Nel GIOCO RAPIDO il mazzo deve essere composto da 15 carte."),
    Rule("KEN-MAZZO-6", "La creazione del mazzo", "Standard game: at least 75 cards", C,
         "Nel GIOCO STANDARD il mazzo deve essere composto da minimo 75 carte."),
    # --- IL GIOCO -----------------------------------------------------------------------------
    Rule("KEN-GIOCO-1", "Il gioco", "Who starts: a random method", NA,
         "bisogna scegliere chi inizierà per primo: usate un metodo casuale", "the log starts with the first turn; record the draw with a note"),
    Rule("KEN-GIOCO-2", "Il gioco", "Both players draw 7 cards", C,
         "A questo punto entrambi i giocatori Pescano 7 carte."),
    Rule("KEN-SEQ-1", "La sequenza di gioco", "The phases in order", C,
         "Ogni Turno è composta dalla seguente sequenza di Fasi: 1 Fase di ORDINE 2 Fase di DISIMPEGNO 3 Fase di PESCATA "
         "4 Fase di PRESENTAZIONE 5 Fase di COMBATTIMENTO 6 Fase di EPILOGO"),
    Rule("KEN-SEQ-2", "La sequenza di gioco", "Players alternate turns", C,
         "Quando il giocatore di Turno ha finito sarà il suo avversario a eseguire le varie Fasi in un continuo alternarsi "
         "sino alla conclusione della partita"),
    Rule("KEN-SEQ-3", "La sequenza di gioco", "An announced decision cannot be taken back", NA,
         "Durante il gioco una volta presa una decisione ed annunciata ad alta voce o tramite lo spostamento od Impegno "
         "delle carte non si può più tornare indietro.",
         "the log records what was announced; only a judge's correction or backup changes it"),
    Rule("KEN-ORDINE-1", "La fase Ordine", "Green Order points are added in one's Order phase", C,
         "In questa Fase il giocatore di Turno conta i propri Punti Ordine Verdi, segnati sulle sue carte in gioco in un "
         "bollino verde in basso a sinistra e li aggiunge al proprio totale di punti"),
    Rule("KEN-ORDINE-2", "La fase Ordine / La Vittoria", "Victory is declared only in one's Order phase, 10+ ahead", C,
         "Il giocatore di Turno può dichiararsi vincitore solo in questa Fase, se durante la Fase di Combattimento o in una "
         "qualsiasi altra Fase ha più di 10 Punti Ordine del suo avversario dovrà attendere la propria Fase di Ordine per "
         "dichiararsi vincitore, sempre che ancora ci siano le condizioni di vittoria."),
    Rule("KEN-DISIMP-1", "La fase Disimpegno", "Disengage one's cards; skipped on one's first turn", C,
         "il giocatore di Turno può Disimpegnare le proprie carte Impegnate [...] Nel proprio primo Turno, solo in questo "
         "caso, non avendo ancora carte in gioco questa Fase è da saltare."),
    Rule("KEN-PESCA-1", "La fase di Pescata", "Draw 1 to 3 cards, at least 1", C,
         "Il giocatore di turno Pesca dal mazzo del Futuro un numero di carte variabile a sua scelta da 1 a 3 [...] Un "
         "giocatore deve sempre Pescare almeno 1 carta e mai più di 3."),
    Rule("KEN-PESCA-2", "La fase di Pescata / La Vittoria", "Who finishes the Future deck loses (standard game)", C,
         "Se un giocatore finisce il mazzo del Futuro ha perso la partita."),
    Rule("KEN-PRES-1", "La fase di Presentazione", "The active player plays cards from the hand", C,
         "Il giocatore di Turno gioca (cioè mette sul tavolo a faccia in su, nel Presente) le carte che desidera tra quelle "
         "che tiene in mano."),
    Rule("KEN-PRES-2", "La fase di Presentazione", "Where the cards go", R,
         "Le carte Luogo vengono riposte nel Territorio [...] Le carte protagonista, Maestro, Personaggio ed Esercito vengono "
         "poste davanti a voi nello spazio riservato alle Forze in Gioco. Le carte Evento dovete posizionarle alla vostra "
         "sinistra nel Destino.", DERIVED),
    Rule("KEN-PRES-3", "La fase di Presentazione", "At most 7 cards in hand at the end of the Presentation phase", C,
         "Il giocatore di Turno alla fine di questa Fase deve rimanere con un massimo di 7 carte in mano, altrimenti è "
         "obbligato a scartare a sua scelta quelle in eccedenza nel Passato."),
    Rule("KEN-UNICA-1", "Capacità speciali: CARTA UNICA", "Carta Unica: one in one's own Present", C,
         "questa Limitazione significa che può esistere una sola carta nel proprio Presente di quel Tipo e con quel Nome, "
         "la prima ad essere giocata (ogni giocatore può avere la propria)."),
    # --- COMBATTIMENTO ------------------------------------------------------------------------
    Rule("KEN-COMB-1", "La fase di Combattimento", "The active player attacks, in the Combat phase", C,
         "In questa Fase il giocatore di Turno decide se attaccare l'avversario."),
    Rule("KEN-COMB-2", "Decisione degli obiettivi", "Attack order: from the Location played last, in sequence", C,
         "il primo gruppo deve attaccare la carta Luogo giocata per ultima dall'avversario, quella più vicina a voi, poi è "
         "possibile attaccare in sequenza anche gli altri Luoghi con altri gruppi"),
    Rule("KEN-COMB-3", "Decisione degli obiettivi", "Each attacked Location by at least one Protagonist", C,
         "Non esiste limite al numero di Luoghi che possono essere attaccati, a patto che ogni luogo sia attaccato da "
         "almeno una carta Esercito, o Personaggio o Maestro."),
    Rule("KEN-COMB-4", "Decisione degli obiettivi", "No Locations: Protagonists attacked singly, no defence groups", C,
         "Solo se l'avversario non ha Luoghi nel proprio Presente, le sue carte Maestro, Personaggio ed Esercito possono "
         "essere attaccate singolarmente, precludendo in questo caso all'avversario la possibilità di formare dei gruppi di difesa"),
    Rule("KEN-GRUPPO-1", "I Gruppi", "Only non-Engaged cards in a group", C,
         "Il gruppo può essere formato solo da carte Non Impegnate."),
    Rule("KEN-GRUPPO-2", "I Gruppi", "Never an Evil (red) and a Good (blue) card in one group", C,
         "Mai una carta Malvagia, rossa, ed una Buona, blu, possono stare nello stesso gruppo."),
    Rule("KEN-GRUPPO-3", "I Gruppi", "Never two different Schools in one group", C,
         "Mai due carte di Scuola diversa possono essere nello stesso gruppo, escluse le multi Scuola."),
    Rule("KEN-GRUPPO-4", "I Gruppi / COBRA", "Surnames that restrict groups", C,
         "Mai con carte con COGNOMI che limitano la formazione dei gruppi se non eterogenei. [COBRA:] Le carte segnate in "
         "questa maniera non possono essere in gruppo con protagonisti che non rechino questa scritta."),
    Rule("KEN-GRUPPO-5", "I Gruppi", "Damage starts from the first card of the group", R,
         "Quando si forma un gruppo per attaccare, la posizione di un Protagonista diventa importante: i danni verranno "
         "infatti assegnati partendo dal primo.",
         "derived: damage is dealt in the recorded card order; claims that ignore it are flagged by KEN-DANNI-2"),
    Rule("KEN-GRUPPO-6", "I Gruppi", "A card is in one group only", C,
         "Il gruppo viene formato mettendo le carte dei Protagonisti una dietro l'altra verticalmente",
         "a card placed in two groups is flagged (the book's groups are disjoint piles of cards)"),
    Rule("KEN-MAESTRO-2", "I Gruppi", "A Master commands at the bottom of a group, or fights alone", C,
         "Il Maestro può essere usato come Comandante di un gruppo o combattere da solo. Come Comandante [...] non "
         "contribuisce al valore di combattimento dello stesso e deve essere posizionato in fondo al gruppo. Utilizzato come "
         "combattente nessun Esercito, Personaggio o altro Maestro può essere nel suo gruppo."),
    Rule("KEN-MAESTRO-3", "I Maestri", "Damage reaching a Commander: a new combat", R,
         "Se dopo aver Vinto tutte le carte i danni giungono ad un Maestro Comandante, questo non li subisce, ma è "
         "costretto ad entrare nel conflitto, rendendo necessaria un nuovo combattimento tra il Maestro e le carte del gruppo "
         "avversario sopravvissute.",
         "derived: the Commander is drawn in and the next combat.damage at that target has the Master fight alone"),
    Rule("KEN-DIFESA-1", "I Gruppi", "The defender forms one defence group per attack, same rules", C,
         "Per ogni attacco il difensore può formare un gruppo di difesa, con le stesse modalità dell'attaccante."),
    Rule("KEN-ABIL-1", "Le Capacità Speciali", "A card's ability once per combat", C,
         "è possibile attivare la Capacità Speciale di una carta una sola volta per combattimento."),
    Rule("KEN-ABIL-2", "Le Capacità Speciali", "Activation needs as many Lives of the commanding Master as symbols", C,
         "Per ciascun gruppo il giocatore può Attivare a sua scelta tutte le capacità Sempre Attive e le capacità che abbiano "
         "vicino tanti Simboli di Scuola quante sono le Vite del Maestro che comanda il gruppo"),
    Rule("KEN-COMB-5", "La sequenza delle decisioni", "The attacker decides first, then the defender", R,
         "In tutte le situazioni prima decide l'attaccante cosa fare e poi tocca al difensore.",
         "the order of the events records it; replies go on until both pass"),
    Rule("KEN-DANNI-1", "I danni", "A group's damage is the sum of its Attack values", C,
         "La somma dei Valori di Attacco delle carte che compongono un gruppo (Eserciti e Personaggi con le carte loro "
         "assegnate ed eventuali Capacità Speciali attive o il solo Maestro comprese le carte di cui farà uso) rappresenta i "
         "danni che il gruppo dell'avversario subirà nel combattimento.",
         "a warning when the recorded damage differs from the printed Attack plus the recorded effects"),
    Rule("KEN-DANNI-2", "I danni / Fig. 10", "Damage first card first, Defence then Resistance; simultaneous", C,
         "Per calcolare i danni si inizia dalla prima carta dell'avversario [...] Quando si infliggono i danni ad una carta "
         "prima va sottratta la sua Difesa e poi la sua Resistenza, solo se la Resistenza è completamente Azzerata la carta "
         "è Vinta. I danni rimanenti sono quindi inflitti sulla carta successiva con lo stesso metodo"),
    Rule("KEN-DANNI-3", "I danni", "A card not vanquished stays as if nothing happened", C,
         "Se la Resistenza di una carta non è completamente Azzerata la carta rimane in gioco come se non fosse successo nulla."),
    Rule("KEN-CONQ-1", "La conquista di un Luogo", "Conquering a Location", C,
         "Quando il difensore alla fine della Fase di Combattimento non ha più Personaggi, Maestri ed Eserciti a difesa di "
         "un Luogo e l'attaccante rimane con almeno una carta Esercito, Maestro o Personaggio nel gruppo che lo sta "
         "attaccando, questo è conquistato e va riposto nel mazzo del Passato. Se non è stato designato nessun gruppo a "
         "difesa di un Luogo attaccato, quel Luogo è automaticamente conquistato."),
    Rule("KEN-OCRA-1", "I punti Ordine Ocra", "Ochre Order points for cards vanquished in combat", C,
         "Quando durante il combattimento avete Vinto una carta all'avversario che reca in basso a sinistra un numero in un "
         "cerchio ocra dovete aggiungere tale valore ai vostri Punti Ordine."),
    Rule("KEN-OCRA-2", "La Vittoria", "No Order points for cards removed by effects", C,
         "Ricordate che se una carta che ha il Bollino Ocra viene eliminata senza che gli siano inflitti i danni, cioè per "
         "effetto di carte Evento o di altre carte, non fornisce Punti Ordine."),
    Rule("KEN-COMB-6", "La fine del combattimento", "Group cards become Engaged", R,
         "Tutte le carte che hanno fatto parte di un gruppo di attacco o di difesa diventano Impegnate",
         "derived at combat.end; an Engaged card in a later group is flagged by KEN-GRUPPO-1"),
    Rule("KEN-EPILOGO-1", "La fase di Epilogo", "PUNTATA and GIOCA E SCARTA/TOGLI cards go to the Past", R,
         "In questa Fase entrambi i giocatori raccolgono le proprie carte Evento con scritto PUNTATA e GIOCA E SCARTA e GIOCA "
         "E TOGLI che sono rimasti sul tavolo e le mettono nel mazzo del Passato.", DERIVED),
    # --- VITTORIA -----------------------------------------------------------------------------
    Rule("KEN-VITT-1", "La Vittoria", "10+ Order points ahead in one's Order phase wins", C,
         "Quando un giocatore, nella propria Fase Ordine, possiede almeno 10 Punti Ordine in più dell'avversario é il "
         "Vincitore e la partita è finita."),
    Rule("KEN-VITT-2", "La Vittoria", "Otherwise who finishes the Future deck first loses", R,
         "in questo caso perde chi finisce prima il proprio mazzo del Futuro (ricordate che dovete pescare sempre almeno "
         "una carta a Turno).",
         "the same as KEN-PESCA-2"),
    Rule("KEN-RAPIDO-1", "Il gioco rapido", "Quick game: when both Futures are empty, more Order points wins", C,
         "Quando entrambi i giocatori non hanno più carte da pescare dal proprio mazzo del Futuro vince il giocatore che ha "
         "più Punti Ordine."),
    Rule("KEN-RAPIDO-2", "Il gioco rapido", "Quick game: only the end and the victory differ", C,
         "La differenza tra il gioco Rapido e quello Standard è solo nella fine della partita e come si vince.",
         "the 10-point Order-phase victory and the deck-out loss are off in the quick game (options quick_lead_victory)"),
    # --- CAPACITÀ SPECIALI E TERMINI ----------------------------------------------------------
    Rule("KEN-GLOSS-ANNULLA", "Capacità speciali", "ANNULLA", R, "annullare significa che la carta obiettivo di questa capacità "
         "perde temporaneamente le sue Capacità Speciale per il resto della Puntata.", EFFECT),
    Rule("KEN-GLOSS-SUICIDA", "Capacità speciali", "ATTACCO SUICIDA", R, "questa capacità consente normalmente di raddoppiare "
         "il valore di Attacco della carta fino alla fine del combattimento [...] al termine del quale la carta viene eliminata "
         "e tolta completamente dal gioco.", EFFECT + " (`effects` with the attack bonus, then a `move` to removed)"),
    Rule("KEN-GLOSS-AUTOCONTROLLO", "Capacità speciali", "AUTOCONTROLLO / SUPREMO: change Spirit / Technique", R,
         "un protagonista con questa capacità può dichiarare l'uso di uno Spirito e decidere in un secondo tempo, di "
         "cambiarlo, prima dell'assegnazione dei danni", EFFECT),
    Rule("KEN-GLOSS-AZZERA", "Capacità speciali", "AZZERA", R, "azzerare significa che i valori, Attacco o Difesa o "
         "Resistenza, della carta obiettivo di questa capacità diventano zero per il combattimento. Non è possibile azzerare "
         "una vita.", EFFECT),
    Rule("KEN-GLOSS-BATTAGLIA", "Capacità speciali", "BATTAGLIA / SFIDA / DUELLO", R, "Durante la Battaglia nessuno prende "
         "Punti Ordine, ma chi perde meno punti ordine guadagna i Punti Ordine definiti nella Capacità Speciale.",
         EFFECT + " (`order.points` naming the Battaglia)"),
    Rule("KEN-GLOSS-BLOCCA", "Capacità speciali", "BLOCCA, DISTRAZIONE, TERRORE, COPIA, DIVENTA, RENDE, CONTEMPORANEITÀ, "
         "A DISTANZA, SORPRESA, INVINCIBILE, CERCA, PRENDI", R,
         "la carta colpita sarà Annullata e Non Utilizzabile nel gioco finché la carta che reca la scritta Blocca non verrà "
         "Annullata o Scartata.", EFFECT),
    Rule("KEN-GLOSS-CUMULABILE", "Capacità speciali", "CUMULABILE / COMBINABILE", C,
         "In assenza di questa scritta può essere assegnata ad un protagonista o un Luogo una sola carta Tecnica, Spirito, "
         "Speciale ed Equipaggiamento che abbia lo stesso Nome e lo stesso Tipo."),
    Rule("KEN-GLOSS-DEMONE", "Capacità speciali", "DEMONE and other COGNOMI", R, "DEMONE comprende tutti i COGNOMI sopracitati "
         "tranne DEMONE COMANDANTE, PRIMO DEMONIO, SECONDO DEMONIO e TERZO DEMONIO.",
         "surnames are recorded facts (`surnames`); their card-specific meanings are effects"),
    Rule("KEN-GLOSS-IMPEGNARE", "Capacità speciali", "IMPEGNARE", R, "Una carta Impegnata può essere attaccata se il suo "
         "possessore non ha Luoghi nel suo Presente.",
         "the checks are KEN-COMB-4 (Engaged cards may be targets) and KEN-GRUPPO-1"),
    Rule("KEN-GLOSS-MASSACRATORE", "Capacità speciali", "MASSACRATORE", C, "il luogo conquistato da un gruppo con questa "
         "capacità viene Tolto dal Gioco invece di finire nel Passato. Rende inoltre ogni Vita dei Personaggi del gruppo "
         "avversario pari a 1 di Resistenza."),
    Rule("KEN-GLOSS-MORTALE", "Capacità speciali", "MORTALE", C, "se almeno una carta che riporta la scritta Mortale, è parte "
         "di un gruppo che riesce a vincere uno o più protagonisti dell'avversario, queste vengono dette Morte invece di Vinte "
         "e vengono Tolte dal Gioco al posto di essere messe nel mazzo del Passato."),
    Rule("KEN-GLOSS-MULTIPLI", "Capacità speciali", "MULTIPLI DANNI: no ochre after the second distribution", R,
         "Quando si usa ad esempio Doppi Danni invece si ripete il procedimento [...] dopo la seconda distribuzione dei danni "
         "non verranno più calcolati i Punti Ocra delle carte Vinte o Morte.",
         "derived (waves); a wrong Order-point count is flagged by KEN-OCRA-1"),
    Rule("KEN-GLOSS-MAX", "Capacità speciali", "MAX + o - #", C, "indica il numero massimo di questa carta che può essere "
         "presente nel tuo mazzo. Normalmente è 5, ma questa scritta aumenta o diminuisce il numero di carte."),
    Rule("KEN-GLOSS-DURATA", "Capacità speciali: Durata", "GIOCA E RIPRENDI, RIPRENDI DOPO L'USO", C,
         "GIOCA E RIPRENDI: [...] Le carte Evento con questa dicitura possono essere giocate sempre. [...] RIPRENDI DOPO "
         "L'USO: [...] Solo il giocatore di turno può giocare le carte Evento con questa durata nella Fase di Presentazione"),
    # --- the tool's own --------------------------------------------------------------------------
    Rule("KEN-T-1", "tablejudge (non del regolamento)", "A card must be where it is moved, played or drawn from", C,
         "", ""),
    Rule("KEN-T-2", "tablejudge (non del regolamento)", "Nothing is played after the game has ended", C, "", ""),
    Rule("KEN-T-3", "tablejudge (non del regolamento)", "Card facts must be known to judge a card", C,
         "", "a card played by `code` that no registered deck describes cannot be judged: a warning"),
    Rule("KEN-TEMPO-1", "tablejudge: fine del tempo (nostra scelta)", "End of time: more Order points wins, equal is a draw", R,
         "Quando entrambi i giocatori non hanno più carte da pescare dal proprio mazzo del Futuro vince il giocatore che ha "
         "più Punti Ordine.",
         "our end-of-time policy, applied by end_of_time() when time is called; nothing to flag during play"),
)
