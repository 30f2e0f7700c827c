"""The rule catalogue of Raid sur Onigashima (raid-sur-onigashima.fr.md), quoted in French.

Every rule of the rulebook is here with its status: "checked" (a check in onigashima.py flags a
breach), "recorded" (events record it; replay applies it or nothing can check it) or "n/a".
Section names are the rulebook's own headings.
"""
from __future__ import annotations

from ..findings import Rule

RULES = (
    # --- setup ------------------------------------------------------------------------------
    Rule("ONI-PLAYERS", "RÈGLE DU JEU", "2 to 6 players", "checked",
         "7+ / 2 À 6 JOUEURS / 15 À 30 MINUTES"),
    Rule("ONI-CAMPS", "RAID SUR ONIGASHIMA; 5 joueurs; 6 joueurs",
         "Two camps; every player in one; 5 players play 3 against 2, 6 players 3 against 3", "checked",
         "Choisissez votre camp entre l'alliance visant à libérer le pays de Wano ou les forces "
         "d'Onigashima. [...] La partie dure 12 tours, et c'est un 3 contre 2. [...] Chaque camp sera "
         "composé de 3 joueurs",
         why="2 to 4 players: the pages are missing from the scan; we require camps differing by at "
             "most one player (1v1, 2v1, 2v2), as 3v2 and 3v3 do"),
    Rule("ONI-TURNS", "BUT DU JEU; FIN DU JEU", "6, 10 or 12 turns by player count", "checked",
         "À la fin des 6, 10 ou 12 tours selon le nombre de joueurs, celui qui obtient le plus de "
         "Points de Victoire gagne.",
         why="12 turns for 5 and 6 players is in the text; 6 turns for 2 players and 10 for 3-4 is "
             "our reading of the missing pages (option `turns`)"),
    Rule("ONI-DEAL", "5 joueurs; 6 joueurs", "Each camp draws its character cards: turns + 4",
         "checked",
         "Chaque camp pioche un total de 16 Cartes Personnage qu'il se partage [...] Pour chaque "
         "partie, il restera 4 personnages en main par camp qui ne seront pas joués, que la partie "
         "dure 6, 10 ou 12 tours.",
         why="16 for 12 turns is printed; 10 and 14 for 6 and 10 turns follow from the 4 unplayed cards"),
    Rule("ONI-CAPTAIN", "5 joueurs; 6 joueurs", "Each player chooses one captain among the camp's cards",
         "checked", "parmi ces 16 chaque joueur doit choisir 1 capitaine"),
    Rule("ONI-CAPTAIN-6P", "6 joueurs", "6 players: Kaido and Big Mom are the emperors' obligatory captains",
         "checked",
         "Chaque joueur choisi son capitaine. Il y aura 2 capitaines obligatoires pour le camp Kaido et "
         "Big Mom et 3 capitaines pour le camp de Luffy et ses alliés.",
         why="read as: in the emperors' camp two of the three captains must be Kaido and Big Mom "
             "(any form); checked when the first fight starts"),
    Rule("ONI-QUOTA", "5 joueurs; 6 joueurs", "Players of a camp share its fights: turns / team size each",
         "checked",
         "L'équipe de 3 joueurs effectuera 4 combats chacun, l'équipe de 2 joueurs en effectuera 6 "
         "chacun au cours de la partie. [...] chaque joueur fera à tour de rôle 4 combats chacun",
         why="a player exceeding the share is flagged when the extra fight starts; when the share is not "
             "a whole number (10 turns, 3 players) the larger share is allowed"),
    Rule("ONI-FIRST", "DÉROULEMENT D'UN TOUR", "Who starts the game", "recorded",
         "Le joueur qui a vu en dernier un épisode de ONE PIECE commence la partie.",
         why="no effect on the fights' order, which initiative decides"),
    # --- a turn -----------------------------------------------------------------------------
    Rule("ONI-TURN-FIGHT", "DÉROULEMENT D'UN TOUR", "One fight per turn, after the turn begins",
         "checked",
         "À chaque tour, choisissez un seul personnage pour combattre que vous placerez face cachée en "
         "attendant que votre adversaire envoi son personnage."),
    Rule("ONI-REVEAL", "DÉROULEMENT D'UN TOUR", "Face-down choice, revealed together", "n/a",
         "Une fois que les 2 personnages placés face cachée sont au centre de la table, retournez-les "
         "et le combat démarre.", why="a physical procedure; the log records the revealed fighters"),
    Rule("ONI-ONE-ON-ONE", "DÉROULEMENT D'UN TOUR", "A fight is one against one", "checked",
         "Chaque combat se déroule en un contre un sauf si un joueur utilise une carte Attaque "
         "permettant de faire le combat à plusieurs.",
         why="fights with several characters (an Attack card allows them) cannot be recorded yet"),
    Rule("ONI-FIGHT-CAMP", "LISTE DES CAMPS", "A player fights with a character of its camp", "checked",
         "CAMP DES 2 EMPEREURS BIG MOM ET KAIDO",
         why="the camp of each character is the table's (engine/data/onigashima_characters.json)"),
    Rule("ONI-HAND", "5 joueurs", "A fighter comes from the camp's drawn characters", "checked",
         "Chaque camp pioche un total de 16 Cartes Personnage qu'il se partage",
         why="checked only when the deal event names the cards"),
    Rule("ONI-FIGHT-ONCE", "DÉROULEMENT D'UN TOUR; LES COMBATS",
         "Each character fights once per game, even if it won", "checked",
         "Chaque personnage ne peut combattre qu'une seule fois lors d'une partie même s'il gagne le "
         "combat.",
         why="a character is identified with all its forms (the same name)"),
    # --- a fight ----------------------------------------------------------------------------
    Rule("ONI-TRANSFO-ROLL", "LA TRANSFORMATION", "Transformation succeeds on D6 >= TRANSFO", "checked",
         "Il lance alors un D6 et compare son résultat avec le score indiqué en haut à gauche de la "
         "carte (TRANSFO: ...+). S'il échoue, le personnage conserve sa forme actuelle. S'il réussit, "
         "le joueur prend alors la carte correspondante à la transformation du personnage et remplace "
         "l'actuelle."),
    Rule("ONI-TRANSFO-FORM", "DÉROULEMENT D'UN COMBAT", "A character transforms into one of its own forms",
         "checked",
         "Référez-vous à la liste en dernière page pour voir quels personnages se transforment : Leur "
         "nom apparait plusieurs fois."),
    Rule("ONI-TRANSFO-TIME", "DÉROULEMENT D'UN COMBAT; EXEMPLE D'UN COMBAT",
         "One transformation roll per fighter, before the attacks", "checked",
         "Au début de son tour, un joueur peut décider de Transformer son Personnage (si celui-ci le "
         "permet). [...] 1. Chaque personnage lance son dé de transformation."),
    Rule("ONI-INITIATIVE", "INITIATIVE / POINTS DE VICTOIRE", "Higher initiative attacks first", "checked",
         "L'initiative : Le personnage qui a l'initiative la plus élevée commence à attaquer, en cas "
         "d'égalité, lancez un dé pour vous départager.",
         why="a card recorded with take_initiative (as Kaido's Orgueil in the worked example) gives "
             "the first attack to its player"),
    Rule("ONI-ALTERNATE", "DÉROULEMENT D'UN COMBAT", "The fighters attack in turn", "checked",
         "4 - Le défenseur matérialise les dégâts de l'attaque à l'aide des jetons dégâts puis lance à "
         "son tour les dés ou joue ses cartes et attaque son adversaire s'il lui reste des énergies."),
    Rule("ONI-CARDS-3", "3 RÈGLES D'OR LORS D'UN COMBAT", "At most 3 cards per fight", "checked",
         "1 - Vous pouvez jouer 3 cartes maximum par combat (Carte Attaque, Défense ou Faiblesse)."),
    Rule("ONI-WEAKNESS", "LES CARTES FAIBLESSE", "A Weakness card only against that weakness", "checked",
         "NOTE : Une Faiblesse ne peut être jouée que si l'adversaire y est sensible (si la Faiblesse "
         "apparaît sur sa carte de Personnage). Si elle n'apparaît pas, elle est sans effet sur "
         "l'adversaire.",
         why="checked when the opponent's weaknesses are known (character.stats, or the table); a "
             "finding resting on guessed data is a warning"),
    Rule("ONI-WEAKNESS-TIME", "LES CARTES FAIBLESSE", "Weakness cards are played before the attacks",
         "checked",
         "Jouez-les dès le début du combat sans tenir compte des valeurs d'initiatives u du combattant "
         "adverse. Elles DOIVENT être jouées avant les attaques."),
    Rule("ONI-HAKI-CARD", "LES CARTES ATTAQUES; LES CARTES DÉFENSES", "A haki card needs the symbol",
         "checked",
         "Un personnage ne peut utiliser de carte Fluide (Offensif, Royal, Offensif Avancé, Royal "
         "Avancé) que si son symbole est disponible sur sa carte Personnage. [...] Un personnage ne "
         "peut utiliser de carte Fluide Perceptif (Normal ou Avancé) que si son symbole est disponible "
         "sur sa carte Personnage.",
         why="an advanced symbol also allows the normal card (Luffy, with the three advanced haki, "
             "plays a Fluide Perceptif card in the worked example); warnings when the symbols are guessed"),
    Rule("ONI-CARD-TIMING", "LES CARTES ATTAQUES; LES CARTES DÉFENSES", "Cards at the moment printed on them",
         "recorded",
         "Elles ne peuvent être jouées qu'au moment indiqué dans le cadre noir, au centre de la carte : "
         "au début du combat, avant votre lancer de D6 OU après votre lancer de D6.",
         why="the cards' texts are not in the rulebook; the card event records what the card did"),
    Rule("ONI-COUNTERS", "3 RÈGLES D'OR LORS D'UN COMBAT; DÉROULEMENT D'UN COMBAT 5",
         "Fluide Perceptif counters anything; haki cards counter by value", "recorded",
         "2 - Les cartes Fluide Perceptif (Normales ou Avancées) peuvent contrer toutes les cartes, y "
         "compris les cartes Contre, et ne peuvent pas être contrées.",
         why="a countering card is recorded with cancel=true; the card values are not in the rulebook"),
    Rule("ONI-DICE", "DÉROULEMENT D'UN COMBAT", "The attacker rolls the card's number of D6", "checked",
         "2 - L'attaquant prend le nombre de D6 indiqué en haut de sa carte et les lance",
         why="minus dice an ability removed (dice_removed); the recorded dice are the final dice after "
             "any reroll"),
    Rule("ONI-DAMAGE", "LA DÉFENSE; 3 RÈGLES D'OR LORS D'UN COMBAT",
         "Each die >= defence removes 1 energy; abilities as recorded", "checked",
         "3 - Lors d'une attaque, chaque résultat du D6 supérieur ou égal à la défense de l'adversaire "
         "lui fait perdre 1 énergie.",
         why="the tool recomputes the energy lost from the dice and the recorded ability and flags a "
             "recorded figure that disagrees"),
    Rule("ONI-ABILITIES", "LES CAPACITÉS DU PERSONNAGE", "Abilities 1 and 2", "recorded",
         "Elles seront à utiliser lors de l'attaque d'un personnage pour améliorer sa défense ou son "
         "attaque.",
         why="abilities are printed on the cards, not in the rulebook: the attack event records the one "
             "in force (faces, energy per die, +1 per die, -1 defence, cancelled dice)"),
    Rule("ONI-DODGE", "LE FLUIDE AVANCÉ", "Advanced haki dodge: 1 haki 6, 2: 5-6, 3: 4-6", "checked",
         "Le résultat du D6 à obtenir varie en fonction du nombre de Fluides Avancés possédés : 1 Fluide "
         "Avancé : faire 6 2 Fluides Avancés: faire 5 ou 6 3 Fluides Avancés: faire 4, 5 ou 6",
         why="success is computed from the roll; flagged: a dodge without advanced haki, a second dodge "
             "of one attack, a dodge with no attack to dodge"),
    Rule("ONI-ENERGY-ZERO", "L'ÉNERGIE; LES COMBATS", "Energy 0 loses the fight", "checked",
         "C'est le nombre de points de vie du personnage. Si il tombe à 0, vous perdez le combat.",
         why="flagged: a fight ended 'by energy' while the loser has energy left, an attack by a "
             "character with no energy"),
    Rule("ONI-SPOILS", "DÉROULEMENT D'UN COMBAT", "The winner draws a card and keeps the defeated card",
         "recorded",
         "Le gagnant pioche une carte de son choix parmi les cartes Attaque, Défense et Faiblesse et "
         "conserve la carte du personnage vaincu pour compter ses points de victoire en fin de partie.",
         why="replay gives the defeated card's victory points (its form at defeat) to the winner's camp; "
             "the drawn card is not tracked"),
    Rule("ONI-TOKENS", "LES JETONS ÉNERGIES", "Energy tokens", "n/a",
         "66 jetons de -2, -5 et -10 énergies vous permettent de décompter les énergies perdues",
         why="physical material; energy is derived by replay"),
    # --- end --------------------------------------------------------------------------------
    Rule("ONI-END", "FIN DU JEU", "Nothing after the last turn; most victory points wins", "checked",
         "À la fin des 6, 10 ou 12 tours selon le nombre de joueurs, celui qui obtient le plus de "
         "Points de Victoire gagne.",
         why="a fight after the last turn's fight is flagged; equal points: the book is silent (option `tie`)"),
)
