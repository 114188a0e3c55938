/** Serbian texts of automatic bidding that the server answers with (the bid box shows them too). */
export const autoBidTexts = {
  activeMaximum: 'Imate aktivnu automatsku ponudu. Povećajte je.',
  onlyRaise: 'Maksimalnu ponudu možete samo povećati.',
} as const;
