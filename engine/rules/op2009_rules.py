"""The rule catalogue of `op2009`: every rule of the MM25 rulebook (7 April 2009) with its id,
section, status and the rulebook's own words (Italian). docs/rulesets/op2009.md lists the same ids."""
from __future__ import annotations

from ..findings import Rule

R = Rule

RULES: tuple[Rule, ...] = (
    # --- Costruzione del Mazzo ----------------------------------------------------------------
    R("OP09-MAZZO-1", "Introduzione / Costruzione del Mazzo", "Deck of exactly 32 cards", "checked",
      "Il Mazzo deve essere composto da 32 carte esatte."),
    R("OP09-MAZZO-2", "Introduzione / Costruzione del Mazzo", "At most 4 cards per code", "checked",
      "un mazzo non può contenere più di 4 carte identificate dallo stesso codice."),
    R("OP09-MAZZO-3", "Introduzione / Costruzione del Mazzo; Cappelli di Paglia", "Straw-hat limits", "checked",
      "Per ogni cappello di paglia puoi inserire in un mazzo una di queste carte (quindi la massima quantità "
      "scende a 2 carte nel mazzo per 2 cappelli di paglia, e così via)."),
    # --- Preparazione -------------------------------------------------------------------------
    R("OP09-PREP-1", "Preparazione", "The Ponte and its positions", "n/a",
      "Non è obbligatorio utilizzare il Ponte, ma nel caso non venga utilizzato entrambi i giocatori devono "
      "rispettare le posizioni indicate su di esso",
      why="physical layout; the log names spaces explicitly (capitano, marinaio1, marinaio2)"),
    R("OP09-PREP-2", "Preparazione", "Shuffle; the opponent may shuffle again", "recorded",
      "Mescola con cura il tuo Mazzo. [...] Se l'avversario lo desidera, lascia che mescoli di nuovo il tuo mazzo.",
      why="`shuffle` records it (with `by`); shuffling cannot be judged from a log"),
    R("OP09-PREP-3", "Preparazione", "6 cards face down to the Giornale di Bordo", "checked",
      "Le prime 6 carte del Forziere devono essere posizionate a faccia in giù nello spazio indicato come "
      "Logpose. Queste carte sono il Giornale di Bordo."),
    R("OP09-PREP-4", "Preparazione", "Opening hand of 7 cards", "checked",
      "Poi, andranno pescate le prime 7 carte dal Forziere. Queste carte costituiscono la Mano del giocatore."),
    R("OP09-PREP-5", "Preparazione", "Who starts; in best-of-three the loser of the previous game starts",
      "checked",
      "Nel caso di incontri al meglio delle tre partite, inizierà le partite successive alla prima il giocatore "
      "sconfitto nella partita precedente [chi è stato battuto inizia, senza scelta]."),
    R("OP09-PREP-6", "Preparazione", "Pirate Mulligan once per match (per opponent)", "checked",
      "Questo mulligan può essere ripetuto una sola volta per ogni incontro (cioè una sola volta contro "
      "ciascun avversario)."),
    R("OP09-PREP-7", "Preparazione", "Free redraws; at least one Character card", "recorded",
      "può decidere di scartare la sua Mano nell'Oceano e di pescare 7 nuove carte dal Forziere [...] Questo "
      "può essere ripetuto quante volte si vuole",
      why="`redraw` applies it; a hidden hand's Character cards cannot be checked"),
    R("OP09-PREP-8", "Preparazione", "One Captain and up to 2 Sailors, face down", "checked",
      "deve scegliere uno dei Personaggi che ha in Mano come suo Capitano, e deve sistemarlo a faccia in giù "
      "nello Spazio Personaggio \"Capitano\" sul Ponte. Può anche sistemare negli Spazi Personaggio "
      "\"Marinaio\" altri 2 Personaggi."),
    R("OP09-PREP-9", "Preparazione", "Life Points on the Ponte at most 6 at preparation", "checked",
      "Tuttavia il totale dei Punti Vita dei Personaggi chiamati sul Ponte non può superare 6."),
    R("OP09-PREP-10", "Preparazione; Glossario (Robin / Miss All Sunday)", "No two Characters of the same name",
      "checked",
      "I Personaggi presenti sul Ponte di uno stesso giocatore non possono avere lo stesso Nome [...] Inoltre "
      "Robin e Miss All Sunday non possono essere presenti contemporaneamente sul Ponte"),
    R("OP09-PREP-11", "Preparazione", "Reveal; Life Points from the Giornale di Bordo", "checked",
      "Entrambi i giocatori girano a faccia in su i loro Personaggi negli Spazi Personaggio. Dopodichè prendono "
      "un numero di carte dal Giornale di Bordo pari ai Punti Vita indicati su ciascuna carta"),
    R("OP09-PREP-12", "Preparazione", "Looking at Life or Logbook cards is cheating", "n/a",
      "Guardare le carte nei Punti Vita e nel Giornale di Bordo è considerato BARARE.",
      why="a judge's matter; record it with a `note` by the judge"),
    # --- Condizioni di vittoria ---------------------------------------------------------------
    R("OP09-VITT-1", "Condizioni di vittoria del gioco", "Victory 1: the opposing Captain defeated", "checked",
      "Condizione di vittoria 1: Sconfigge il Capitano avversario."),
    R("OP09-VITT-2", "Condizioni di vittoria del gioco", "Victory 2: the opponent's Trophies worth 6+ Life Points",
      "checked",
      "Condizione di vittoria 2: Il valore totale dei Punti Vita dei Trofei dell'avversario arriva a 6 o più."),
    R("OP09-VITT-3", "Condizioni di vittoria del gioco", "Victory 3: the opponent cannot draw", "checked",
      "Condizione di vittoria 3: L'avversario è costretto a pescare una carta dal Forziere e aggiungerla alla "
      "sua Mano, ma non può farlo poiché nel Forziere non ha più carte."),
    R("OP09-VITT-4", "Condizioni di vittoria del gioco", "Reached at the same time: a draw", "checked",
      "Se i giocatori raggiungono contemporaneamente uno di questi 3 obiettivi (anche se non è lo stesso "
      "obiettivo) la partita termina con un pareggio."),
    R("OP09-PARTITA-1", "Condizioni di vittoria del gioco", "Nothing is played after the game has ended",
      "checked", "Il primo giocatore che raggiunge uno di questi 3 obiettivi vince la partita"),
    R("OP09-FASI-1", "Fasi di gioco", "Players alternate turns: Iniziale, Principale, Finale", "checked",
      "I giocatori ripetono a turno la sequenza."),
    # --- Carte --------------------------------------------------------------------------------
    R("OP09-CARTE-1", "Carte Tecnica", "\"Utilizzabile da\": the Character or a Reinforcement", "checked",
      "Utilizzabile da: il Nome del Personaggio che può utilizzare questa carta. Deve corrispondere solo il "
      "Nome del Personaggio, indipendentemente dal Codice della carta."),
    R("OP09-CARTE-2", "Carte Tecnica", "Conditions of use", "recorded",
      "La carta non può essere utilizzata a meno che le condizioni non vengano rispettate.",
      why="card conditions are not simulated"),
    R("OP09-CARTE-3", "Carte Tecnica", "Limit per Battle", "checked",
      "Limite: se sulla Carta Tecnica è riportato questo simbolo puoi utilizzare solo il numero indicato di "
      "carte con questo Codice durante una Battaglia."),
    R("OP09-CARTE-0", "Descrizione delle carte / Carta Personaggio", "What a Character card shows", "n/a",
      "Se posizionate negli Spazi Personaggio queste carte rappresentano un Personaggio. Se vengono utilizzate "
      "durante la Battaglia diventano Rinforzi.",
      why="the card's printed values (name, power, damage, Life Points, crew) travel with the events"),
    # --- Fase iniziale / principale -----------------------------------------------------------
    R("OP09-INIZ-1", "Fase iniziale", "The draw is mandatory", "checked",
      "È obbligatorio pescare durante questa Fase."),
    R("OP09-PRINC-1", "Fase principale; FAQ effetti continui", "3 Actions per turn (continuous modifiers summed)",
      "checked",
      "Durante la Fase Principale il giocatore che è di turno ha a disposizione 3 Azioni da compiere. [...] "
      "Una volta risolta la terza Azione si passa automaticamente alla Fase Finale, senza che sia possibile "
      "agire in alcun modo."),
    R("OP09-PRINC-2", "Fase principale", "The Action count kept visible", "n/a",
      "È richiesto che il conto delle azioni consumate venga tenuto in modo visibile e comprensibile anche "
      "per l'avversario.", why="the log itself counts them"),
    R("OP09-PRINC-3", "Fase principale", "Only the turn player acts", "checked",
      "Durante la Fase Principale il giocatore che è di turno ha a disposizione 3 Azioni"),
    # --- Battaglia ----------------------------------------------------------------------------
    R("OP09-BATT-1", "1) Cominciare una Battaglia", "One Battle per Character per turn", "checked",
      "Ogni Personaggio può cominciare una Battaglia solo una volta per turno, tranne dove indicato diversamente."),
    R("OP09-BATT-2", "1) Cominciare una Battaglia", "No Battle in either player's first turn", "checked",
      "Questa Azione, e qualunque azione che implichi \"cominciare una Battaglia\", non può essere utilizzata "
      "durante il primo turno di entrambi i giocatori."),
    R("OP09-BATT-3", "Selezionare un Personaggio avversario", "Who may attack whom", "checked",
      "Il Capitano può attaccare uno qualunque dei Marinai dell'avversario. Può anche attaccare il Capitano "
      "avversario, se almeno uno degli Spazi Personaggio intorno a lui sono liberi. Ciascuno dei Marinai può "
      "cominciare una Battaglia contro il Marinaio avversario che ha di fronte. Se lo Spazio Personaggio di "
      "fronte al Marinaio è libero, allora quel Marinaio può cominciare una Battaglia con il Capitano avversario."),
    R("OP09-BATT-4", "Compiere una Azione di Battaglia", "Battle actions in turn, the attacker first", "checked",
      "Iniziando dal giocatore che ha cominciato la Battaglia, i giocatori a turno compiono Azioni di Battaglia "
      "selezionandole tra le 4 possibili."),
    R("OP09-BATT-5", "Chiamare Rinforzi", "+100 power per Reinforcement", "checked",
      "La Forza del Personaggio impegnato della Battaglia viene incrementato di 100 per ogni rinforzo che "
      "viene chiamato."),
    R("OP09-BATT-6", "Chiamare Rinforzi", "A Reinforcement of another crew costs 1 damage", "checked",
      "Quando vengono chiamati Rinforzi le ciurme del rinforzo e del Personaggio devono essere uguali. "
      "Diversamente, il Personaggio che sta chiamando Rinforzi subisce 1 danno. Questa restrizione non si "
      "applica ai Cittadini. Tutti i Personaggi possono chiamare come Rinforzi i Cittadini senza subire alcun "
      "danno ad eccezione della Ciurma Nemica, che subisce comunque 1 Danno, e i Cittadini possono chiamare "
      "come Rinforzi Personaggi di qualunque bandiera ad eccezione della Ciurma Nemica, che infligge loro "
      "comunque 1 Danno."),
    R("OP09-BATT-7", "Utilizzare Carte Tecnica", "Technique cards only during a Battle", "checked",
      "Puoi utilizzare Carte Tecnica solo durante la Battaglia."),
    R("OP09-BATT-8", "Utilizzare Carte Tecnica", "Immediate vs lasting effects of removed Techniques", "recorded",
      "Gli effetti delle Carte Tecnica che agiscono immediatamente sul gioco [...] non vengono annullati anche "
      "se in seguito la carta viene rimossa dal gioco.", why="card effects are not simulated"),
    R("OP09-BATT-9", "Chiamare Carte Squadra", "Conditions to call a Team card", "checked",
      "Il secondo Personaggio presente sulla Carta Squadra deve essere utilizzato come Rinforzi. Sul Ponte non "
      "è presente il Personaggio utilizzato come Rinforzi. Devi avere a disposizione un numero sufficiente di "
      "Punti Vita per chiamare la Carta Squadra"),
    R("OP09-BATT-10", "Chiamare Carte Squadra", "Team cards are never Reinforcements", "checked",
      "Le Carte Squadra non possono essere utilizzate come Rinforzi"),
    R("OP09-BATT-11", "Passare", "Both pass: the power comparison; nothing more is played", "checked",
      "Quando entrambi i giocatori passano consecutivamente, si procede al Confronto delle Forze dei "
      "Personaggi. Nessun giocatore può giocare altre carte per liberarsi la mano dopo che entrambi hanno passato."),
    R("OP09-BATT-12", "Confrontare le Forze dei Personaggi; Infliggere il Danno", "Power comparison and damage",
      "checked",
      "Il Personaggio con la Forza maggiore vince la Battaglia. [...] Il vincitore infligge al perdente il danno "
      "che è indicato sulla carta, dopo tutte le variazioni causate dalle Carte Tecnica. Se la Battaglia finisce "
      "in parità entrambi i Personaggi infliggono all'Avversario il loro danno."),
    R("OP09-BATT-13", "Subire Danni e ridurre i Punti Vita", "Life cards from the top to the hand; 0 is a Trophy",
      "checked",
      "dovrai rimuovere immediatamente lo stesso numero di carte dallo Spazio Punti Vita del Personaggio e "
      "aggiungerle alla tua Mano. [...] Quando i Punti Vita raggiungono lo 0, il Personaggio diventa "
      "immediatamente un Trofeo."),
    R("OP09-BATT-14", "Scartare le carte utilizzate", "Used cards to the Oceano at the end of the Battle",
      "checked",
      "Tutte le Carte Tecnica e i Rinforzi utilizzati durante la Battaglia dovranno essere scartati a faccia in "
      "su nell'Oceano al termine della stessa"),
    R("OP09-BATT-15", "Svolgimento della battaglia", "A prevented Battle still uses the Character's Battle",
      "checked",
      "E' possibile prevenire l'Azione di Cominciare una Battaglia (in questo caso la Battaglia non comincia, "
      "ma il Personaggio non può dichiarare un'altra Battaglia durante il turno in corso)"),
    R("OP09-BATT-17", "Svolgimento della battaglia; Scartare le carte utilizzate",
      "A Battle runs to its end before the next Action", "checked",
      "Azioni di Battaglia, eseguite a turno finché entrambi i giocatori utilizzano consecutivamente l'azione "
      "“Passare” [...] - Fine della Battaglia [...] Al termine di questa fase la Battaglia è finita"),
    R("OP09-BATT-16", "Svolgimento della battaglia", "The timing windows of a Battle", "recorded",
      "E' possibile utilizzare Carte Tecnica oppure attivare effetti che possono essere utilizzate prima di "
      "qualunque Azione di Battaglia", why="window-specific effects are recorded, not simulated; the Special "
      "cards' window is checked by OP09-FAQ-SPEC-1"),
    # --- the other actions --------------------------------------------------------------------
    R("OP09-ABIL-1", "2) Attivare una Abilità Speciale; Glossario", "Costed abilities once per turn per Character",
      "checked",
      "Un Personaggio può utilizzare un'abilità che richiede consumo di Azioni solo una volta per turno (salvo "
      "diversa indicazione nel testo della carta) anche se l'abilità costa 1 sola Azione."),
    R("OP09-GIORN-1", "3) Aggiornare il Giornale di Bordo", "1 card per Action from the Forziere", "checked",
      "Il giocatore che è di turno può, senza guardarla, prendere la prima carta del suo Forziere e spostarla "
      "nel Giornale di Bordo. [...] sempre 1 carta per ogni Azione consumata."),
    R("OP09-MARIN-1", "4) Chiamare sul Ponte un nuovo Marinaio", "A Sailor into an empty space with enough Logbook",
      "checked",
      "posizionandolo in uno Spazio Personaggio vuoto. [...] Se le carte presenti nel giornale di bordo non "
      "sono sufficienti il Personaggio non può essere chiamato sul Ponte."),
    R("OP09-MUOV-1", "5) Muovere", "Move between Sailor spaces; the Captain never moves", "checked",
      "È possibile spostare i Personaggi dallo Spazio Personaggio 1 al 2 e viceversa. [...] Il Capitano non può "
      "mai muovere."),
    R("OP09-MANO-1", "6) Aumentare la Mano", "Grow the hand only with 4 or fewer cards", "checked",
      "Questa azione può essere utilizzata solo quando la Mano è composta da 4 o meno carte (quindi pescando "
      "fino alla quinta carta)."),
    R("OP09-PASS-1", "7) Passare", "Passing ends the Fase Principale", "checked",
      "È possibile passare il turno all'avversario."),
    R("OP09-FIN-1", "Fase finale; Preparazione (Mulligan Pirata)", "The hand brought to 4", "checked",
      "Se la sua Mano è composta da 3 o meno carte deve pescare dal Forziere per arrivare ad avere 4 carte. Se "
      "la Mano è composta da 5 o più carte il giocatore deve scartare nell'Oceano fino ad avere una Mano "
      "composta da 4 carte. [Mulligan Pirata:] il giocatore avversario non è obbligato a portare la sua mano a "
      "4 alla fine del suo primo turno."),
    R("OP09-NOTA-1", "Fase finale (Nota)", "A card's text beats the rules", "recorded",
      "Quando una carta contraddice queste regole, la carta si considera sempre avere la precedenza.",
      why="events carry `via`/`cost`/`effect` for card-granted exceptions"),
    R("OP09-GLOS-1", "Glossario (Punti Vita)", "No more Life Points than printed", "checked",
      "Se non indicato diversamente, nessun Personaggio può avere un numero di Punti Vita superiore al suo "
      "valore iniziale"),
    R("OP09-GLOS-2", "Glossario", "Other glossary terms", "n/a",
      "Guardare la Mano dell'avversario > Il giocatore può guardare le carte dell'avversario una sola volta",
      why="definitions used by the other rules; not a check of their own"),
    # --- FAQ ----------------------------------------------------------------------------------
    R("OP09-FAQ-PRIO-1", "FAQ / Priorità", "Own cost to start a Battle beats the opponent's", "recorded",
      "Quando un effetto del tuo avversario ti richiede di consumare X Azioni per cominciare una Battaglia e un "
      "altro effetto richiede al tuo Personaggio di consumare X Azioni per cominciare una Battaglia, il secondo "
      "effetto ha la precedenza.", why="`battle.start` records the Actions actually spent (`cost`)"),
    R("OP09-FAQ-PRIO-2", "FAQ / Priorità", "Cards preventing a target, and the cards that override them",
      "checked",
      "Quando un effetto impedisce per qualunque motivo ai tuoi Personaggi di cominciare una Battaglia contro un "
      "Personaggio specifico e l'effetto di una delle tue carte ti permette di cominciare una Battaglia contro "
      "un Personaggio specifico, il secondo effetto ha la precedenza."),
    R("OP09-FAQ-PRIO-3", "FAQ / Priorità", "To the Oceano beats back to the Forziere or hand", "recorded",
      "Quando un effetto ti permette di rimettere una delle tue carte nel Forziere oppure nella tua Mano e un "
      "altro effetto ti obbliga a spostare una tua carta nell'Oceano, il secondo effetto ha la precedenza.",
      why="`move` records where the card went"),
    R("OP09-FAQ-CAPP-1", "FAQ / Cappelli di Paglia", "Straw-hat cards never return from the Oceano to the hand",
      "checked",
      "Tutte le carte che possiedono effetti in grado di aggiungere alla mano carte dall'oceano, non hanno "
      "effetto su carte con Cappelli di Paglia."),
    R("OP09-FAQ-SPEC-1", "FAQ / Carte Speciali", "BP-W13, BP-W05, JS-W28 not during \"Azioni di Battaglia\"",
      "checked",
      "La condizione di utilizzo delle carte BP-W13,BP-W05,JS-W28 va letta come \"Questa carta non può essere "
      "utilizzata durante la fase \"Azioni di Battaglia\""),
    R("OP09-FAQ-CONT-1", "FAQ / effetti continui", "Continuous Action modifiers are summed (3 - 1 + 1 = 3)",
      "checked",
      "la situazione si risolve contando il numero di azioni \"aggiuntive\" che si avrebbe e fare la somma. In "
      "questo caso 3 - 1 + 1 = 3 quindi le azioni disponibili per il giocatore sono 3."),
    R("OP09-FAQ-CONT-2", "FAQ / effetti continui (RG-C19 Miss Monday)", "The Miss Monday damage clamp", "checked",
      "Se i punti danno del personaggio sono 1 o minori di 1, va aggiunto il bonus dato da Miss Monday. Se i "
      "punti danno sono 3 o più, l'effetto di Miss Monday li riduce a 2."),
    # --- Situazione Fine Tempo ----------------------------------------------------------------
    R("OP09-TEMPO-PARI-1", "Situazione Fine Tempo / Parità", "Tied match: finish the current turn", "checked",
      "Se termina il tempo e l'incontro è in parità, bisogna terminare il turno in corso."),
    R("OP09-TEMPO-PARI-2", "Situazione Fine Tempo / Parità", "Tied match: the regular conditions at the turn's end",
      "checked",
      "Al termine del turno, si vede se uno dei due giocatori ha raggiunto una delle tre condizioni di vittoria "
      "regolamentari previste."),
    R("OP09-TEMPO-PARI-3", "Situazione Fine Tempo / Parità", "Tied match: the smaller Captain Life difference",
      "checked",
      "Al termine del proprio turno si considera la condizione di vittoria aggiuntiva \"il giocatore il cui "
      "capitano ha una differenza minore fra i propri punti vita e quelli stampati sulla carta, vince\"."),
    R("OP09-TEMPO-PARI-4", "Situazione Fine Tempo / Parità", "Tied match: sudden death", "checked",
      "Se nessuno dei due giocatori ha raggiunto una delle condizioni di vittoria, vince l'incontro il giocatore "
      "che raggiunge per primo una fra le 3 condizioni di vittoria regolamentari oppure raggiunge la condizione "
      "di vittoria aggiuntiva \"Il primo giocatore che infligge danno al capitano avversario vince\"."),
    R("OP09-TEMPO-CAP-1", "Situazione Fine Tempo", "Captains tie in power: the attacker wins", "checked",
      "Se lo scontro è fra i due capitani e nel confronto della forza sono pari, vince fra i due capitani il "
      "giocatore attaccante (i personaggi devono pareggiare e infliggere almeno 1 danno)."),
    R("OP09-TEMPO-VANT-1", "Situazione Fine Tempo / 1-0 oppure 0-1", "One game ahead: the leader wins", "checked",
      "Se termina il tempo e uno dei due giocatori è in vantaggio, e concludendo il turno in corso nessuno dei "
      "due giocatori raggiunge una condizione di vittoria regolamentare, vince l'incontro il giocatore che ha "
      "vinto la partita precedente."),
    R("OP09-TEMPO-VANT-2", "Situazione Fine Tempo / 1-0 oppure 0-1", "It becomes 1-1: a sudden-death game",
      "checked",
      "Se la situazione si porta sull'1-1, si inizia una nuova partita e si determina il vincitore dell'incontro "
      "considerando tutte le condizioni di vittoria più la condizione di vittoria aggiuntiva \"Il primo che "
      "infligge danno al capitano avversario vince\"."),
    R("OP09-TEMPO-VANT-3", "Situazione Fine Tempo / 1-0 oppure 0-1", "In that game the second player attacks first",
      "checked",
      "In quest'ultimo caso, il primo giocatore a poter attaccare è il secondo giocatore che inizia la partita."),
    R("OP09-TEMPO-SIDE-1", "Situazione Fine Tempo / sideboard", "Sideboarding at 1-0: the leader wins 2-1", "checked",
      "Si sta usando la sideboard e l'incontro è sull'1-0. Vince l'incontro il giocatore in vantaggio perchè a "
      "tempo terminato viene assegnato 1 punto vittoria a testa concludendo l'incontro sul 2-1."),
    R("OP09-TEMPO-SIDE-2", "Situazione Fine Tempo / sideboard", "Sideboarding at 1-1: a sudden-death game", "checked",
      "Si sta usando la sideboard e la situazione è sull'1-1. Si inizia una nuova partita e il primo giocatore "
      "che raggiungerà una delle 3 condizioni di vittoria regolamentari oppure la condizione di vittoria "
      "aggiuntiva \"Il primo giocatore che infligge danno al capitano avversario, vince\" sarà decretato "
      "vincitore. Il primo giocatore a poter attaccare è il secondo giocatore che inizia la partita."),
    # --- Errata -------------------------------------------------------------------------------
    R("OP09-ERR-CE-C07", "Errata (CE-C07; LK-C13)", "No damage from the opponent's Techniques", "checked",
      "Questo Personaggio non subisce Danni per effetto delle Carte Tecnica utilizzate dall'avversario. Se perde "
      "la Battaglia subisce normalmente i Danni."),
    R("OP09-ERR-LK-C18", "Errata (LK-C18)", "A second Battle for a Character that already battled", "checked",
      "1 Azione: Questo Personaggio subisce 1 Danno. Uno dei tuoi Personaggi che ha già iniziato una Battaglia "
      "comincia un'altra Battaglia."),
    R("OP09-ERR-JS-C09", "Errata (JS-C09)", "Draw when the opposing Character uses a Technique", "recorded",
      "Puoi pescare 1 carta dal Forziere ogni volta che il Personaggio avversario usa una Carta Tecnica.",
      why="an optional draw, recorded as `draw` (forced: false)"),
    R("OP09-ERR-JS-W27", "Errata (JS-W27)", "+200/+0 or +400/+0 with a Kuro Technique", "recorded",
      "Il tuo Personaggio guadagna +200/+0, oppure, quando il tuo Personaggio utilizza una tecnica "
      "\"Utilizzabile da:\" \"Kuro\" a parte \"JS-W27\", il tuo Personaggio guadagna +400/+0.",
      why="its result is a `modifier` event"),
    R("OP09-ERR-JS-W45", "Errata (JS-W45)", "Cannot be cancelled, destroyed or moved by the opponent", "checked",
      "Questa Carta Tecnica non può essere annullata o distrutta da Abilità Speciali o effetti del tuo "
      "avversario e non può essere spostata nell'Oceano."),
    R("OP09-ERR-SB-C06", "Errata (SB-C06); FAQ (BP-C31)", "Battle against the fewest Life Points", "checked",
      "1 Azione: Sposta 1 carta dal tuo Forziere nell'Oceano. Questo Personaggio comincia una Battaglia contro "
      "il Personaggio avversario che ha il minor numero di Punti Ferita"),
    R("OP09-ERR-LK-C11", "Errata (LK-C11)", "Initial power 100 against Nami, Tashigi, Miss All Sunday, Bibi",
      "recorded",
      "Quando il personaggio avversario è \"Nami\", \"Tashigi\", \"Miss All Sunday\" o \"Bibi\", la Forza "
      "Iniziale di questo personaggio è 100.", why="its result is a `modifier` event"),
    R("OP09-ERR-RG-C19", "Errata (RG-C19)", "Miss Monday: +0/+1 to the Enemy Crew, never to 3", "checked",
      "Mentre questo personaggio è sul Ponte, tutti i personaggi della \"Ciurma Nemica\" sul tuo ponte (incluso "
      "questo personaggio) guadagnano +0/+1. Il danno non può aumentare a 3 o più grazie a questa Abilità "
      "Speciale."),
    R("OP09-ERR-JS-W06", "Errata (JS-W06)", "Only against 2+ Life Points after a \"Limitato:1\"", "checked",
      "Condizioni di Utilizzo: Il personaggio avversario utilizza una tecnica \"Limitato:1\"; Il personaggio "
      "avversario ha 2 o più punti vita."),
    R("OP09-ERR-SB-C14", "Errata (SB-C14)", "Not during the preparation", "checked",
      "Quando questo personaggio viene chiamato sul ponte come Marinaio, pesca 3 carte [...] Questa abilità "
      "speciale non può essere utilizzata durante la fase di preparazione al gioco."),
    R("OP09-ERR-TD-W01", "Errata (TD-W01)", "Davy Back Fight", "recorded",
      "Sposta la Carta Personaggio perdente e tutti i suoi Punti Vita nell'Oceano.",
      why="its results are `move` events"),
    R("OP09-ERR-CS-W03", "Errata (CS-W03)", "Both reach a victory condition: the user loses", "checked",
      "Se sia tu che il giocatore avversario raggiungete le condizioni di vittoria contemporaneamente alla fine "
      "della battaglia, tu perdi la partita"),
)
