//! Dictionaries with declared fields: the nested schema is in the spec (as `static` data),
//! and the typed view is a generated struct named after its parent and the parameter
//! (a `Vec` of them for a list of dictionaries).

use agentkit_core::{tool, BoxError, ToolContext, JsonObject, Literal, ParamType, Tool, ToolHandler};

#[tool(
    name = "plan_trip",
    input = [
        { name = "origin", type = dictionary, fields = [
            { name = "city", type = string, description = "City name" },
            { name = "country", type = string, required = false, default = "US" },
        ] },
        { name = "stops", type = list, items = dictionary, required = false, fields = [
            { name = "city", type = string },
            { name = "nights", type = integer, required = false, default = 1 },
            { name = "hotel", type = dictionary, required = false, fields = [
                { name = "name", type = string },
                { name = "stars", type = integer, required = false },
            ] },
        ] },
        { name = "prefs", type = dictionary, required = false,
          default = { seat = "aisle" },
          fields = [ { name = "seat", type = string }, { name = "meal", type = string, required = false } ] },
        { name = "legs", type = list, items = dictionary, required = false,
          default = [{ from = "A", to = "B" }],
          fields = [ { name = "from", type = string }, { name = "to", type = string } ] },
    ],
    output = [
        { name = "itinerary", type = dictionary, fields = [ { name = "days", type = integer } ] },
    ],
)]
pub struct PlanTrip;

impl ToolHandler for PlanTrip {
    async fn run(&self, input: PlanTripInput, _: &ToolContext<'_>) -> Result<PlanTripOutput, BoxError> {
        let _: PlanTripInputOrigin = input.origin;
        let stops: Option<Vec<PlanTripInputStops>> = input.stops;
        let _: Option<Option<PlanTripInputStopsHotel>> = stops.as_ref().and_then(|s| s.first()).map(|s| s.hotel.clone());
        let _: PlanTripInputPrefs = input.prefs;
        let _: Vec<PlanTripInputLegs> = input.legs;
        let days = stops.map_or(0, |s| s.len()).try_into()?;
        Ok(PlanTripOutput { itinerary: PlanTripOutputItinerary { days } })
    }
}

pub(crate) fn main() {
    let spec = PlanTrip.spec();
    let input = spec.input_schema().expect("declared");

    let origin = input.parameter("origin").expect("declared");
    assert_eq!(origin.param_type(), ParamType::Dictionary);
    let fields = origin.fields().expect("origin declares fields");
    let city = fields.parameter("city").expect("declared");
    assert_eq!(city.param_type(), ParamType::String);
    assert!(city.is_required());
    assert_eq!(city.description(), "City name");
    let country = fields.parameter("country").expect("declared");
    assert!(!country.is_required());
    assert_eq!(country.default_value(), Some(&Literal::from("US")));

    let stops = input.parameter("stops").expect("declared");
    assert_eq!(stops.items(), Some(ParamType::Dictionary));
    let stop = stops.fields().expect("stops declare fields");
    assert_eq!(stop.parameter("nights").and_then(|p| p.default_value()), Some(&Literal::Integer(1)));
    let hotel = stop.parameter("hotel").and_then(|p| p.fields()).expect("nested fields");
    assert_eq!(hotel.parameter("stars").map(|p| p.param_type()), Some(ParamType::Integer));

    let prefs = input.parameter("prefs").and_then(|p| p.fields()).expect("declared");
    assert!(prefs.parameter("seat").is_some_and(|p| p.is_required()));
    assert!(prefs.parameter("meal").is_some_and(|p| !p.is_required()));

    assert!(input.parameter("legs").and_then(|p| p.fields()).is_some());
    let output = spec.output_schema().expect("declared");
    assert!(output.parameter("itinerary").and_then(|p| p.fields()).is_some());
    let _ = JsonObject::new();
}
